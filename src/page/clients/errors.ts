/** An error answer of an in-page route, raised by a convenience client (`ai.memory`, `ai.data`) with the body's status, code and param. */
export class RouteError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | null,
    readonly param: string | null,
  ) {
    super(message);
  }
}
