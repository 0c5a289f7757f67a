import type { ChatMessage } from '../../../protocol/chat';
import type { ListedItem } from './{response_id}/input_items';

/**
 * What a later request's `previous_response_id` continues: the conversation (without instructions),
 * the response, and the items it was generated from (`GET /responses/{id}/input_items`).
 */
export interface StoredResponse {
  messages: ChatMessage[];
  response: Record<string, unknown>;
  /** In conversation order: earlier responses' inputs and outputs, then this request's input. */
  input: ListedItem[];
  /** The response's output items as later inputs (a file search with its results). */
  output: ListedItem[];
}

/**
 * Responses kept for `previous_response_id` and `GET /responses/{id}`: in this page's memory (per
 * `createVaani` instance), the most recent `limit` of them.
 */
export class ResponseStore {
  private readonly items = new Map<string, StoredResponse>();

  constructor(private readonly limit = 256) {}

  get(id: string): StoredResponse | undefined {
    return this.items.get(id);
  }

  put(id: string, value: StoredResponse): void {
    this.items.set(id, value);
    if (this.items.size > this.limit) this.items.delete(this.items.keys().next().value!);
  }

  delete(id: string): boolean {
    return this.items.delete(id);
  }
}
