import type { ChatParams, ToolDefinition } from '../../../protocol/chat';
import type { ToolCallSyntax } from '../tool-calls';

/** One tool a call may name, with the schema its arguments must match. */
export interface GrammarTool {
  name: string;
  parameters: unknown;
  strict: boolean;
  /** Where the schema sits in the request body (`tools[i].function.parameters`). */
  param: string;
}

/** What a request asks generation to be constrained to. */
export type GrammarRequest =
  | { kind: 'json'; json: JsonShape }
  | {
      kind: 'tools';
      tools: GrammarTool[];
      syntax: ToolCallSyntax;
      /** A call is required (tool_choice 'required' or a named function); else text until a call opens. */
      required: boolean;
      parallel: boolean;
      /** With `auto` and a JSON response_format: the answer is either calls (nothing else) or that JSON. */
      json?: JsonShape;
    };

/** Any compact JSON object (json_object), or JSON matching a schema (json_schema). */
export interface JsonShape {
  schema?: unknown;
  strict: boolean;
  /** Where the schema sits in the request body. */
  param: string;
}

function jsonShape(format: ChatParams['response_format']): JsonShape | undefined {
  if (format?.type === 'json_object') return { strict: false, param: 'response_format' };
  if (format?.type === 'json_schema')
    return {
      schema: format.json_schema.schema ?? {},
      strict: format.json_schema.strict === true,
      param: 'response_format.json_schema.schema',
    };
  return undefined;
}

const grammarTool = (tool: ToolDefinition, i: number): GrammarTool => ({
  name: tool.function.name,
  parameters: tool.function.parameters ?? { type: 'object', properties: {} },
  strict: tool.function.strict === true,
  param: `tools[${i}].function.parameters`,
});

/**
 * The constraint for a request: tool calls in `syntax` when tools are offered (required, a named
 * function, or `auto`, where only a call the model opens is constrained), else the JSON
 * `response_format`; undefined when generation is free.
 */
export function grammarRequest(
  params: ChatParams,
  tools: ToolDefinition[] | undefined,
  syntax: ToolCallSyntax | undefined,
): GrammarRequest | undefined {
  const json = jsonShape(params.response_format);
  if (tools?.length && syntax) {
    const choice = params.tool_choice ?? 'auto';
    const required = choice !== 'auto';
    return {
      kind: 'tools',
      tools: tools.map((tool) => grammarTool(tool, Math.max(0, params.tools?.indexOf(tool) ?? 0))),
      syntax,
      required,
      parallel: params.parallel_tool_calls !== false,
      ...(json && !required ? { json } : {}),
    };
  }
  return json && { kind: 'json', json };
}

/** The schemas a request asks to enforce, with where each sits in the request body. */
export function requestedSchemas(params: ChatParams): { param: string; schema: unknown; strict: boolean }[] {
  const out: { param: string; schema: unknown; strict: boolean }[] = [];
  const json = jsonShape(params.response_format);
  if (json?.schema !== undefined) out.push({ param: json.param, schema: json.schema, strict: json.strict });
  if (params.tools && params.tool_choice !== 'none')
    params.tools.forEach((tool, i) => {
      const { parameters, strict, param } = grammarTool(tool, i);
      out.push({ param, schema: parameters, strict });
    });
  return out;
}
