export type ErrorType =
  'invalid_request_error' | 'authentication_error' | 'not_found_error' | 'rate_limit_error' | 'server_error';

export interface ErrorBody {
  error: { message: string; type: ErrorType; param: string | null; code: string | null };
}

const typeForStatus = (status: number): ErrorType =>
  status === 401
    ? 'authentication_error'
    : status === 404
      ? 'not_found_error'
      : status === 429
        ? 'rate_limit_error'
        : status >= 500
          ? 'server_error'
          : 'invalid_request_error';

/** Failures a retry can fix: a full queue (after Retry-After) and a crashed worker (a fresh one starts). */
const RETRYABLE = new Set(['engine_busy', 'engine_crashed']);

/** An error that becomes an OpenAI-shaped JSON response. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | null = null,
    readonly param: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get body(): ErrorBody {
    return { error: { message: this.message, type: typeForStatus(this.status), param: this.param, code: this.code } };
  }

  /** Whether a client should send the same request again (the SDKs read `x-should-retry`). */
  get retryable(): boolean {
    return this.code !== null && RETRYABLE.has(this.code);
  }

  toResponse(): Response {
    const headers = { 'x-should-retry': String(this.retryable), ...this.headers };
    return Response.json(this.body, { status: this.status, headers });
  }
}

export const badRequest = (message: string, param: string | null = null, code = 'invalid_value') =>
  new ApiError(400, message, code, param);

/** Any thrown value as an ApiError; unknown failures are 500s that still carry the shape. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ApiError(500, `Internal error: ${message}`, 'internal_error');
}
