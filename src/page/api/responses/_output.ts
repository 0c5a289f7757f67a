import type { ChatDelta, ChatMessage, ToolCallDelta } from '../../../protocol/chat';
import type { FileCitationAnnotation, FileSearchCallItem } from './_file-search';
import type { ApprovalRequestItem } from '../../services/agents/approval';
import { randomId } from '../../../common/ids';

interface OutputText {
  type: 'output_text';
  text: string;
  annotations: FileCitationAnnotation[];
  logprobs: never[];
}

export interface MessageItem {
  id: string;
  type: 'message';
  status: 'in_progress' | 'completed';
  role: 'assistant';
  content: OutputText[];
}

export interface FunctionCallItem {
  id: string;
  type: 'function_call';
  status: 'in_progress' | 'completed';
  call_id: string;
  name: string;
  arguments: string;
}

interface ReasoningText {
  type: 'reasoning_text';
  text: string;
}

/** The model's thinking (OpenAI's reasoning item, with the text in `content` as open-weight models give it). */
export interface ReasoningItem {
  id: string;
  type: 'reasoning';
  status: 'in_progress' | 'completed';
  summary: never[];
  content: ReasoningText[];
}

/** OpenAI's `mcp_call` item: a page tool's call run on the server side (here: in the page), with its result. */
export interface McpCallItem {
  id: string;
  type: 'mcp_call';
  status: 'completed' | 'failed';
  server_label: string;
  name: string;
  arguments: string;
  output: string | null;
  error: string | null;
  approval_request_id: string | null;
}

export type OutputItem =
  MessageItem | FunctionCallItem | FileSearchCallItem | ReasoningItem | McpCallItem | ApprovalRequestItem;
export type ResponseEvent = { type: string } & Record<string, unknown>;

/**
 * Chat deltas to Responses output items (an assistant message, function calls in order), telling
 * `emit` OpenAI's streaming events as each item opens, grows and closes.
 */
export class ResponseOutput {
  readonly items: OutputItem[] = [];
  private open: MessageItem | FunctionCallItem | ReasoningItem | undefined;
  private readonly calls = new Map<number, FunctionCallItem>();

  constructor(
    private readonly emit: (event: ResponseEvent) => void = () => {},
    /** The annotations of a message's finished text (file_search citations). */
    private readonly annotate?: (text: string) => FileCitationAnnotation[],
  ) {}

  /** An item that is already complete (a file_search call), added and done at once. */
  add(item: OutputItem): void {
    this.close();
    this.items.push(item);
    const output_index = this.items.length - 1;
    this.emit({ type: 'response.output_item.added', output_index, item });
    if (item.type === 'file_search_call')
      for (const step of ['in_progress', 'searching', 'completed'])
        this.emit({ type: `response.file_search_call.${step}`, output_index, item_id: item.id });
    if (item.type === 'mcp_call') {
      this.emit({
        type: 'response.mcp_call_arguments.done',
        output_index,
        item_id: item.id,
        arguments: item.arguments,
      });
      this.emit({ type: `response.mcp_call.${item.status}`, output_index, item_id: item.id });
    }
    this.emit({ type: 'response.output_item.done', output_index, item });
  }

  push(delta: ChatDelta): void {
    if (delta.reasoning_content) this.reasoning(delta.reasoning_content);
    if (delta.content) this.text(delta.content);
    for (const part of delta.tool_calls ?? []) this.call(part);
  }

  /** Closes the item still open (at the end of generation). */
  close(): void {
    const item = this.open;
    if (!item) return;
    this.open = undefined;
    item.status = 'completed';
    const at = { item_id: item.id, output_index: this.items.indexOf(item) };
    if (item.type === 'message') {
      const part = item.content[0]!;
      part.annotations = this.annotate?.(part.text) ?? [];
      part.annotations.forEach((annotation, annotation_index) =>
        this.emit({
          type: 'response.output_text.annotation.added',
          ...at,
          content_index: 0,
          annotation_index,
          annotation,
        }),
      );
      this.emit({ type: 'response.output_text.done', ...at, content_index: 0, text: part.text, logprobs: [] });
      this.emit({ type: 'response.content_part.done', ...at, content_index: 0, part });
    } else if (item.type === 'reasoning') {
      const part = item.content[0]!;
      this.emit({ type: 'response.reasoning_text.done', ...at, content_index: 0, text: part.text });
      this.emit({ type: 'response.content_part.done', ...at, content_index: 0, part });
    } else if (item.type === 'function_call')
      this.emit({ type: 'response.function_call_arguments.done', ...at, arguments: item.arguments });
    this.emit({ type: 'response.output_item.done', output_index: at.output_index, item });
  }

  private begin(item: MessageItem | FunctionCallItem | ReasoningItem): void {
    this.close();
    this.items.push(item);
    this.open = item;
    this.emit({ type: 'response.output_item.added', output_index: this.items.length - 1, item });
  }

  private reasoning(piece: string): void {
    let item = this.open;
    if (item?.type !== 'reasoning') {
      item = { id: randomId('rs_'), type: 'reasoning', status: 'in_progress', summary: [], content: [] };
      this.begin(item);
      const part: ReasoningText = { type: 'reasoning_text', text: '' };
      item.content.push(part);
      this.emit({
        type: 'response.content_part.added',
        item_id: item.id,
        output_index: this.items.length - 1,
        content_index: 0,
        part,
      });
    }
    item.content[0]!.text += piece;
    const at = { item_id: item.id, output_index: this.items.indexOf(item), content_index: 0 };
    this.emit({ type: 'response.reasoning_text.delta', ...at, delta: piece });
  }

  private text(piece: string): void {
    let item = this.open;
    if (item?.type !== 'message') {
      item = { id: randomId('msg_'), type: 'message', status: 'in_progress', role: 'assistant', content: [] };
      this.begin(item);
      const part: OutputText = { type: 'output_text', text: '', annotations: [], logprobs: [] };
      item.content.push(part);
      this.emit({
        type: 'response.content_part.added',
        item_id: item.id,
        output_index: this.items.length - 1,
        content_index: 0,
        part,
      });
    }
    item.content[0]!.text += piece;
    const at = { item_id: item.id, output_index: this.items.indexOf(item), content_index: 0 };
    this.emit({ type: 'response.output_text.delta', ...at, delta: piece, logprobs: [] });
  }

  private call(part: ToolCallDelta): void {
    let item = this.calls.get(part.index);
    if (!item) {
      item = {
        id: randomId('fc_'),
        type: 'function_call',
        status: 'in_progress',
        call_id: part.id ?? randomId('call_'),
        name: part.function.name ?? '',
        arguments: '',
      };
      this.calls.set(part.index, item);
      this.begin(item);
    }
    const delta = part.function.arguments;
    if (!delta) return;
    item.arguments += delta;
    this.emit({
      type: 'response.function_call_arguments.delta',
      item_id: item.id,
      output_index: this.items.indexOf(item),
      delta,
    });
  }
}

/** Output items as the assistant's turn of the conversation (for `previous_response_id`). */
export function assistantMessage(items: OutputItem[]): ChatMessage {
  const text = items.flatMap((item) => (item.type === 'message' ? item.content.map((part) => part.text) : [])).join('');
  const calls = items
    .filter((item): item is FunctionCallItem => item.type === 'function_call')
    .map((item) => ({
      id: item.call_id,
      type: 'function' as const,
      function: { name: item.name, arguments: item.arguments },
    }));
  return calls.length
    ? { role: 'assistant', content: text || null, tool_calls: calls }
    : { role: 'assistant', content: text };
}
