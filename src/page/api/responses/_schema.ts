import * as v from 'valibot';
import { approvalResponse, samplingFields } from '../http/sampling';
import { REASONING_EFFORTS } from '../chat/_thinking';
import { filterSchema } from '../memory/_schema';

const name = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1–64 letters, digits, _ or -'));

/** A content part of an input message: text is read; another type is named in a 400 by the route. */
const part = v.looseObject({ type: v.string(), text: v.optional(v.string()) });

const message = v.object({
  type: v.optional(v.literal('message')),
  role: v.picklist(['user', 'assistant', 'system', 'developer'], 'must be one of user, assistant, system or developer'),
  content: v.union([v.string(), v.array(part)]),
});

const functionCall = v.object({
  type: v.literal('function_call'),
  call_id: v.pipe(v.string(), v.minLength(1)),
  name: v.string(),
  arguments: v.string(),
  id: v.optional(v.string()),
});

const functionOutput = v.object({
  type: v.literal('function_call_output'),
  call_id: v.pipe(v.string(), v.minLength(1)),
  output: v.union([v.string(), v.array(part)]),
});

/** A reasoning item from an earlier response's output: accepted, and not shown to the model again. */
const reasoningItem = v.looseObject({ type: v.literal('reasoning') });

/** Earlier page-tool items sent back: accepted, and not shown to the model again (the stored run has them). */
const mcpItem = v.looseObject({ type: v.picklist(['mcp_call', 'mcp_approval_request', 'mcp_list_tools']) });

/** An input item: a message (with or without `type`), a function call or its output, an approval answer (or earlier output items). */
export const inputItem = v.union(
  [message, functionCall, functionOutput, reasoningItem, approvalResponse, mcpItem],
  'must be a message ({role, content}), a function_call, a function_call_output, an mcp_approval_response or an earlier output item',
);

const functionTool = v.object({
  type: v.literal('function'),
  name,
  description: v.optional(v.nullable(v.string())),
  parameters: v.optional(v.nullable(v.record(v.string(), v.unknown()))),
  strict: v.optional(v.nullable(v.boolean())),
});

/** OpenAI's hosted file search, answered by the page's vector stores (docs/api.md § Data). */
const fileSearchTool = v.object({
  type: v.literal('file_search'),
  vector_store_ids: v.pipe(v.array(v.pipe(v.string(), v.minLength(1))), v.minLength(1), v.maxLength(8)),
  max_num_results: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50))),
  filters: v.optional(v.nullable(filterSchema)),
  ranking_options: v.optional(
    v.object({
      ranker: v.optional(v.string()),
      score_threshold: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(1))),
    }),
  ),
});

/** The page's own tools (`ai.tools`) as OpenAI's MCP tool: no `server_url` (no remote MCP servers here). */
const mcpTool = v.object({
  type: v.literal('mcp'),
  server_label: v.pipe(v.string(), v.minLength(1)),
  server_url: v.optional(v.string()),
  connector_id: v.optional(v.string()),
  server_description: v.optional(v.nullable(v.string())),
  allowed_tools: v.optional(
    v.nullable(v.union([v.array(v.string()), v.object({ tool_names: v.optional(v.array(v.string())) })])),
  ),
  require_approval: v.optional(
    v.nullable(
      v.union([
        v.picklist(['always', 'never']),
        v.object({
          always: v.optional(v.object({ tool_names: v.optional(v.array(v.string())) })),
          never: v.optional(v.object({ tool_names: v.optional(v.array(v.string())) })),
        }),
      ]),
    ),
  ),
});

const toolChoice = v.union([
  v.picklist(['none', 'auto', 'required']),
  v.object({ type: v.literal('function'), name: v.string() }),
  v.object({ type: v.literal('mcp'), server_label: v.string(), name: v.optional(v.nullable(v.string())) }),
]);

const format = v.variant(
  'type',
  [
    v.object({ type: v.literal('text') }),
    v.object({ type: v.literal('json_object') }),
    v.object({
      type: v.literal('json_schema'),
      name,
      description: v.optional(v.string()),
      schema: v.record(v.string(), v.unknown()),
      strict: v.optional(v.nullable(v.boolean())),
    }),
  ],
  'must be one of text, json_object or json_schema',
);

/** OpenAI's Responses request (`client.responses.create`), the fields the local engine reads. */
export const responsesSchema = v.object({
  model: v.pipe(v.string(), v.minLength(1)),
  input: v.union([v.string(), v.pipe(v.array(inputItem), v.minLength(1, 'must contain at least one item'))]),
  instructions: v.optional(v.nullable(v.string())),
  tools: v.optional(
    v.nullable(
      v.pipe(
        v.array(v.union([functionTool, fileSearchTool, mcpTool], 'only function, file_search and mcp tools run here')),
        v.check(
          (tools) => tools.filter((tool) => tool.type === 'file_search').length <= 1,
          'at most one file_search tool',
        ),
        v.check((tools) => tools.filter((tool) => tool.type === 'mcp').length <= 1, 'at most one mcp tool'),
      ),
    ),
  ),
  include: v.optional(v.nullable(v.array(v.string()))),
  tool_choice: v.optional(v.nullable(toolChoice)),
  parallel_tool_calls: v.optional(v.nullable(v.boolean())),
  max_output_tokens: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1)))),
  temperature: samplingFields.temperature,
  top_p: samplingFields.top_p,
  text: v.optional(v.nullable(v.object({ format: v.optional(format) }))),
  reasoning: v.optional(
    v.nullable(
      v.object({
        effort: v.optional(v.nullable(v.picklist(REASONING_EFFORTS))),
        summary: v.optional(v.nullable(v.string())),
      }),
    ),
  ),
  stream: v.optional(v.nullable(v.boolean()), false),
  previous_response_id: v.optional(v.nullable(v.string())),
  store: v.optional(v.nullable(v.boolean()), true),
  metadata: v.optional(v.nullable(v.record(v.string(), v.string()))),
  user: v.optional(v.nullable(v.string())),
});

export type ResponsesRequest = v.InferOutput<typeof responsesSchema>;
export type InputItem = v.InferOutput<typeof inputItem>;
export type MessageInput = v.InferOutput<typeof message>;

/** Whether an input item is a message (its `type` is optional). */
export const isMessage = (item: InputItem): item is MessageInput => item.type === undefined || item.type === 'message';
export type FileSearchTool = v.InferOutput<typeof fileSearchTool>;
export type McpTool = v.InferOutput<typeof mcpTool>;
