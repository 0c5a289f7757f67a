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

  toResponse(): Response {
    return Response.json(this.body, { status: this.status, headers: this.headers });
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
