import { VaaniError } from '../../protocol/errors';

export { VaaniError };

/** The `error` object of an OpenAI-shaped error body. */
interface ErrorObject {
  message?: unknown;
  code?: unknown;
  param?: unknown;
  type?: unknown;
}

/** A stream's error event carries no status of its own (the stream's was 200): its type names one. */
const STATUS_OF_TYPE: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  not_found_error: 404,
  rate_limit_error: 429,
  server_error: 500,
};

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * An error answer of a /v1 route, raised by `ai.memory`, `ai.data`, `ai.images` and the widgets:
 * the HTTP status, and the body's message, code, param and type. `generate` picks the subclass by
 * status, as the openai SDK does, so `instanceof RateLimitError` and the like work.
 */
export class APIError extends VaaniError {
  override name = 'APIError';

  constructor(
    readonly status: number,
    message: string,
    readonly code: string | null,
    readonly param: string | null,
    readonly type: string | null = null,
    readonly headers?: Headers,
  ) {
    super(message);
  }

  /** The error of an answer with `status`: `body` is its parsed JSON (`{ error: {…} }`) or its text. */
  static generate(status: number, body: unknown, headers?: Headers): APIError {
    const error =
      (typeof body === 'object' && body !== null ? (body as { error?: ErrorObject }).error : undefined) ?? {};
    const message =
      text(error.message) ?? (typeof body === 'string' && body ? body : `${status} status code (no body)`);
    const Class =
      status === 400
        ? BadRequestError
        : status === 401
          ? AuthenticationError
          : status === 404
            ? NotFoundError
            : status === 409
              ? ConflictError
              : status === 429
                ? RateLimitError
                : status >= 500
                  ? InternalServerError
                  : APIError;
    return new Class(status, message, text(error.code), text(error.param), text(error.type), headers);
  }

  /** The error of a failed response (its body read as JSON, else as text). */
  static async fromResponse(response: Response): Promise<APIError> {
    const raw = await response.text().catch(() => '');
    let body: unknown = raw || response.statusText;
    try {
      body = JSON.parse(raw);
    } catch {
      // not JSON: the text is the message
    }
    return APIError.generate(response.status, body, response.headers);
  }

  /** A stream's error event (`{ error: {…} }`): its status from its type, 500 when unknown. */
  static fromEvent(body: { error: ErrorObject }): APIError {
    return APIError.generate(STATUS_OF_TYPE[text(body.error.type) ?? ''] ?? 500, body);
  }
}

/** 400 (413 and 415 stay plain `APIError`s with their status). */
export class BadRequestError extends APIError {
  override name = 'BadRequestError';
}
/** 401: a missing or wrong key. */
export class AuthenticationError extends APIError {
  override name = 'AuthenticationError';
}
/** 404: an unknown model, route or id. */
export class NotFoundError extends APIError {
  override name = 'NotFoundError';
}
/** 409: e.g. a memory of another origin. */
export class ConflictError extends APIError {
  override name = 'ConflictError';
}
/** 429: the engine's queue is full (see `headers`' Retry-After). */
export class RateLimitError extends APIError {
  override name = 'RateLimitError';
}
/** Any 5xx: 500, 502, 503, 507, … */
export class InternalServerError extends APIError {
  override name = 'InternalServerError';
}

/** The older names of `APIError` (`ai.memory`'s, `ai.data`'s, `ai.images`' errors): the same class. */
export const MemoryError = APIError;
export type MemoryError = APIError;
export const DataError = APIError;
export type DataError = APIError;
export const ImagesError = APIError;
export type ImagesError = APIError;
