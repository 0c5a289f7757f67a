import type { ChatMessage } from '../../protocol/chat';

/** What a later request's `previous_response_id` continues: the conversation (without instructions) and the response. */
export interface StoredResponse {
  messages: ChatMessage[];
  response: Record<string, unknown>;
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
