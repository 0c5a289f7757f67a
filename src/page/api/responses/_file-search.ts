import type { FileCitation, SearchResult } from '../../../protocol/data';
import { groundedPrompt } from '../../services/grounding/prompt';
import type { ChatMessage } from '../../../protocol/chat';
import { DATA_MODEL } from '../_data';
import { ApiError } from '../http/errors';
import type { Services } from '../http/dispatch';
import type { FileSearchTool, ResponsesRequest } from './_schema';
import { randomId } from '../../../common/ids';

/** OpenAI's `file_search_call` output item; `results` only when `include` asks for them. */
export interface FileSearchCallItem {
  id: string;
  type: 'file_search_call';
  status: 'completed';
  queries: string[];
  results:
    { file_id: string; filename: string; score: number; attributes: SearchResult['attributes']; text: string }[] | null;
}

/** OpenAI's annotation on output text for a cited file. */
export interface FileCitationAnnotation {
  type: 'file_citation';
  index: number;
  file_id: string;
  filename: string;
}

export interface FileSearch {
  item: FileSearchCallItem;
  /** The passages as a system message (numbered, within the model's context). */
  grounding: ChatMessage;
  passages: SearchResult[];
  /** The results, kept with the response for `input_items?include[]=file_search_call.results`. */
  results: FileSearchCallItem['results'];
}

/** The latest user message's text: what file_search looks for. */
const lastQuestion = (messages: ChatMessage[]) =>
  [...messages].reverse().find((message) => message.role === 'user' && message.content)?.content ?? undefined;

/**
 * The file_search tool, run before the model (**Choice**: a small local model is not trusted to
 * decide when to search): the latest user message searches the tool's vector stores, and the
 * passages found ground the answer as numbered sources it cites as [n].
 */
export async function fileSearch(
  ctx: Services,
  body: ResponsesRequest,
  messages: ChatMessage[],
  contextTokens: number,
): Promise<FileSearch | undefined> {
  const tool = body.tools?.find((tool): tool is FileSearchTool => tool.type === 'file_search');
  const query = lastQuestion(messages);
  if (!tool || body.tool_choice === 'none' || !query) return undefined;
  const data = ctx.registry.get('data', DATA_MODEL);
  if (!data) throw new ApiError(503, 'No local data engine answers file_search.', 'model_unavailable');
  const results = await data.search(tool.vector_store_ids, {
    text: query,
    mode: tool.ranking_options?.ranker === 'none' ? 'semantic' : 'hybrid',
    filters: tool.filters ?? undefined,
    limit: tool.max_num_results ?? 10,
    minScore: tool.ranking_options?.score_threshold,
  });
  const { passages, messages: prompt } = groundedPrompt(query, results, {
    contextTokens,
    answerTokens: body.max_output_tokens ?? 512,
  });
  const include = body.include?.includes('file_search_call.results') ?? false;
  const found = passages.map((passage) => ({
    file_id: passage.file_id,
    filename: passage.filename,
    score: passage.score,
    attributes: passage.attributes,
    text: passage.content.map((part) => part.text).join('\n'),
  }));
  return {
    passages,
    grounding: prompt[0]!,
    results: found,
    item: {
      id: randomId('fs_'),
      type: 'file_search_call',
      status: 'completed',
      queries: [query],
      results: include ? found : null,
    },
  };
}

export const annotationOf = ({ index, file_id, filename }: FileCitation): FileCitationAnnotation => ({
  type: 'file_citation',
  index,
  file_id,
  filename,
});
