import type { ChatMessage } from '../../../protocol/chat';
import type { PausedRun } from '../../services/agents/approval';
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
  /** A run of page tools stopped for approvals; `offset`: where its state's messages leave the instructions and grounding. */
  agent?: PausedRun & { offset: number };
}
