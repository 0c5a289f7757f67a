import { parse } from '../http/body';
import type { Services } from '../http/dispatch';
import { bodyOf, runMemory, usageOf } from './_run';
import { deleteSchema, listSchema, scopeSchema, updateSchema } from './_schema';

const LIST_PARAMS = new Set(['limit', 'after', 'order', 'model']);

/** GET /memory?limit&after&order&<scope field>=…: a page of memories, newest first by default. */
export async function memoryList(ctx: Services, request: Request, path: string): Promise<Response> {
  const query = Object.fromEntries(new URL(request.url).searchParams);
  const params = parse(listSchema, Object.fromEntries(Object.entries(query).filter(([key]) => LIST_PARAMS.has(key))));
  const scope = parse(scopeSchema, Object.fromEntries(Object.entries(query).filter(([key]) => !LIST_PARAMS.has(key))));
  return runMemory(ctx, request, path, params.model, new Uint8Array(), async (memory) => {
    const page = await memory.list(
      { scope, limit: Number(params.limit), after: params.after, order: params.order },
      request.signal,
    );
    return {
      object: 'list',
      data: page.data,
      first_id: page.data[0]?.id ?? null,
      last_id: page.data.at(-1)?.id ?? null,
      has_more: page.has_more,
    };
  });
}

/** GET /memory/{id}, POST /memory/{id} (update; new text is embedded again), DELETE /memory/{id}. */
export const memoryItem =
  (id: string) =>
  async (ctx: Services, request: Request, path: string): Promise<Response> => {
    const { value, raw } = await bodyOf(request);
    if (request.method === 'GET')
      return runMemory(ctx, request, path, 'embed-v1', raw, (memory) => memory.get(id, request.signal));
    if (request.method === 'DELETE')
      return runMemory(ctx, request, path, 'embed-v1', raw, async (memory) => {
        await memory.remove(id, request.signal);
        return { id, object: 'memory.deleted', deleted: true };
      });
    const body = parse(updateSchema, value);
    return runMemory(ctx, request, path, body.model, raw, async (memory, embed) => {
      const embedded = body.text === undefined ? undefined : await embed([body.text], 'passage');
      const updated = await memory.update(
        id,
        { text: body.text, metadata: body.metadata, scope: body.scope, vector: embedded?.vectors[0] },
        embedded?.model,
        request.signal,
      );
      return { ...updated, usage: usageOf(embedded?.tokens ?? 0) };
    });
  };

/** POST /memory/delete: every memory in a scope (at least one field), optionally narrowed by filters. */
export async function memoryDelete(ctx: Services, request: Request, path: string): Promise<Response> {
  const { value, raw } = await bodyOf(request);
  const body = parse(deleteSchema, value);
  return runMemory(ctx, request, path, body.model, raw, async (memory) => ({
    object: 'memory.deleted',
    deleted: await memory.removeWhere(body.scope, body.filters, request.signal),
  }));
}
