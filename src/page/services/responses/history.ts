/**
 * Responses kept for `previous_response_id` and `GET /responses/{id}`: in this page's memory (per
 * `createVaani` instance), the most recent `limit` of them. The route decides what an entry holds.
 */
export class ResponseHistory<T> {
  private readonly items = new Map<string, T>();

  constructor(private readonly limit = 256) {}

  get(id: string): T | undefined {
    return this.items.get(id);
  }

  put(id: string, value: T): void {
    this.items.set(id, value);
    if (this.items.size > this.limit) this.items.delete(this.items.keys().next().value!);
  }

  delete(id: string): boolean {
    return this.items.delete(id);
  }
}
