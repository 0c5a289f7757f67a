import { EngineError, messageOf, type EngineErrorKind } from '../../../protocol/errors';

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

/** The HTTP status of each kind of engine failure: the only place below the routes' own checks that picks one. */
const STATUS: Record<EngineErrorKind, number> = {
  invalid_input: 400,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  busy: 429,
  aborted: 499,
  internal: 500,
  upstream: 502,
  unavailable: 503,
  crashed: 503,
  storage_full: 507,
};

/**
 * Any thrown value as an ApiError (the one error mapper): an EngineError gets its kind's status (a
 * busy engine also a Retry-After), unknown failures are 500s that still carry the shape.
 */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof EngineError)
    return new ApiError(
      STATUS[error.kind],
      error.message,
      error.code,
      error.param,
      error.kind === 'busy' ? { 'retry-after': '1' } : {},
    );
  return new ApiError(500, `Internal error: ${messageOf(error)}`, 'internal_error');
}
