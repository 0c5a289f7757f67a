import type { AgentTool } from './loop';

/** A built-in tool as the request enables it: its type and its settings. */
export type BuiltinRef =
  | { type: 'memory.search'; scope?: Record<string, string>; limit?: number }
  | { type: 'memory.store'; scope?: Record<string, string> }
  | { type: 'file_search'; vector_store_ids: string[]; max_num_results?: number };

/** Calls one of this page's own routes (POST, JSON) for a tool: the answer's `data`; a failure is the tool's error. */
export type RouteCall = (path: string, body: object, signal: AbortSignal) => Promise<unknown[]>;

export const BUILTIN_NAMES = ['memory.search', 'memory.store', 'file_search'] as const;

const query = (what: string) => ({
  type: 'object',
  properties: { query: { type: 'string', description: what } },
  required: ['query'],
  additionalProperties: false,
});

const round = (score: unknown) => Math.round(Number(score) * 1000) / 1000;

const READ_ONLY = { needsApproval: false, annotations: { readOnlyHint: true } };

/** The built-in tools over the memory and data routes, run like page tools (searches read only; memory.store writes, so it asks). */
export function builtinTool(call: RouteCall, ref: BuiltinRef): AgentTool {
  if (ref.type === 'memory.search')
    return {
      ...READ_ONLY,
      definition: {
        type: 'function',
        function: {
          name: 'memory.search',
          description: "Search the user's long-term memory for facts relevant to a query.",
          parameters: query('what to look for'),
        },
      },
      execute: async (args, signal) => {
        const body = { query: args.query, scope: ref.scope ?? {}, limit: ref.limit ?? 5 };
        const hits = (await call('/memory/search', body, signal)) as { text: string; score: number }[];
        return hits.map((hit) => ({ text: hit.text, score: round(hit.score) }));
      },
    };
  if (ref.type === 'memory.store')
    return {
      needsApproval: true,
      annotations: { readOnlyHint: false },
      definition: {
        type: 'function',
        function: {
          name: 'memory.store',
          description: 'Remember a fact about the user in long-term memory (one short sentence).',
          parameters: {
            type: 'object',
            properties: { text: { type: 'string', description: 'the fact' } },
            required: ['text'],
            additionalProperties: false,
          },
        },
      },
      execute: async (args, signal) => {
        const stored = (await call('/memory/store', { text: args.text, scope: ref.scope ?? {} }, signal)) as {
          id: string;
        }[];
        return { stored: stored.map((item) => item.id) };
      },
    };
  return {
    ...READ_ONLY,
    definition: {
      type: 'function',
      function: {
        name: 'file_search',
        description: "Search the user's files for passages relevant to a query.",
        parameters: query('what to look for'),
      },
    },
    execute: async (args, signal) => {
      const limit = ref.max_num_results ?? 5;
      const results = await Promise.all(
        ref.vector_store_ids.map(
          (id) =>
            call(
              `/vector_stores/${encodeURIComponent(id)}/search`,
              { query: args.query, max_num_results: limit },
              signal,
            ) as Promise<{ filename: string; score: number; content: { text: string }[] }[]>,
        ),
      );
      return results
        .flat()
        .sort((a, b) => b.score - a.score)
        .slice(0, limit)
        .map((hit) => ({
          filename: hit.filename,
          score: round(hit.score),
          text: hit.content.map((part) => part.text).join('\n'),
        }));
    },
  };
}
