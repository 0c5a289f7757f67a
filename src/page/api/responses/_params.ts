import type { ChatMessage, ChatParams } from '../../../protocol/chat';
import { CHAT_DEFAULTS, chatParams } from '../../services/chat/params';
import { effortThinks, thinkingOf } from '../chat/_thinking';
import type { FileSearch } from './_file-search';
import { formatOf, toolChoiceOf, toolsOf } from './_input';
import type { ResponsesRequest } from './_schema';

/** A Responses request as chat params over `messages`. */
export const toParams = (body: ResponsesRequest, messages: ChatMessage[]): ChatParams =>
  chatParams(
    {
      model: body.model,
      instructions: body.instructions,
      messages,
      temperature: body.temperature,
      top_p: body.top_p,
      max_tokens: body.max_output_tokens,
      tools: toolsOf(body),
      tool_choice: toolChoiceOf(body),
      parallel_tool_calls: body.parallel_tool_calls,
      response_format: formatOf(body),
      thinking: thinkingOf([{ param: 'reasoning.effort', on: effortThinks(body.reasoning?.effort) }]),
    },
    CHAT_DEFAULTS.responses,
  );

/** The file_search passages joined to the system message (one system message suits every chat template). */
export function grounded(messages: ChatMessage[], search: FileSearch): ChatMessage[] {
  const [first, ...rest] = messages;
  if (first?.role !== 'system') return [search.grounding, ...messages];
  return [{ role: 'system', content: `${first.content ?? ''}\n\n${search.grounding.content}` }, ...rest];
}
