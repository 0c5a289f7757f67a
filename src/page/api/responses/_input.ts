import type { ChatMessage, ResponseFormat, ToolChoice, ToolDefinition } from '../../../protocol/chat';
import { badRequest } from '../http/errors';
import { isMessage, type InputItem, type ResponsesRequest } from './_schema';

type Part = { type: string; text?: string };

const TEXT_PARTS = new Set(['input_text', 'output_text', 'text']);

function text(content: string | Part[], param: string): string {
  if (typeof content === 'string') return content;
  return content
    .map((part, j) => {
      if (!TEXT_PARTS.has(part.type))
        throw badRequest(
          `Content part type '${part.type}' is not supported by this model: only text parts can be read.`,
          `${param}[${j}].type`,
          'unsupported_content',
        );
      return part.text ?? '';
    })
    .join('');
}

/** Input items as chat messages: consecutive function calls join one assistant message, outputs become tool messages. */
export function inputMessages(input: ResponsesRequest['input']): ChatMessage[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  const messages: ChatMessage[] = [];
  input.forEach((item: InputItem, i) => {
    if (isMessage(item)) {
      const role = item.role === 'developer' ? 'system' : item.role;
      messages.push({ role, content: text(item.content, `input[${i}].content`) });
      return;
    }
    if (item.type === 'reasoning' || item.type.startsWith('mcp_')) return;
    if (item.type === 'function_call') {
      const last = messages.at(-1);
      const call = {
        id: item.call_id,
        type: 'function' as const,
        function: { name: item.name, arguments: item.arguments },
      };
      if (last?.role === 'assistant' && last.tool_calls) last.tool_calls.push(call);
      else messages.push({ role: 'assistant', content: null, tool_calls: [call] });
    } else if (item.type === 'function_call_output') {
      messages.push({ role: 'tool', tool_call_id: item.call_id, content: text(item.output, `input[${i}].output`) });
    }
  });
  return messages;
}

/** The function tools, for the chat engine (file_search runs before the model, see file-search.ts). */
export function toolsOf(body: ResponsesRequest): ToolDefinition[] | undefined {
  const functions = (body.tools ?? []).flatMap((tool) => (tool.type === 'function' ? [tool] : []));
  return functions.length
    ? functions.map(({ name, description, parameters, strict }) => ({
        type: 'function',
        function: {
          name,
          ...(description ? { description } : {}),
          ...(parameters ? { parameters } : {}),
          strict: strict ?? null,
        },
      }))
    : undefined;
}

export function toolChoiceOf(body: ResponsesRequest): ToolChoice | undefined {
  const choice = body.tool_choice;
  if (choice == null || typeof choice === 'string') return choice ?? undefined;
  return choice.name ? { type: 'function', function: { name: choice.name } } : 'required';
}

export function formatOf(body: ResponsesRequest): ResponseFormat | undefined {
  const format = body.text?.format;
  if (!format || format.type !== 'json_schema') return format;
  return { type: 'json_schema', json_schema: { name: format.name, schema: format.schema, strict: format.strict } };
}
