/**
 * What went wrong, in engine terms: no HTTP status here. `src/page/api/http/errors.ts` alone maps a kind to a
 * status (invalid_input 400, not_found 404, conflict 409, too_large 413, busy 429, aborted 499,
 * internal 500, upstream 502, unavailable and crashed 503, storage_full 507).
 */
export type EngineErrorKind =
  | 'invalid_input'
  | 'not_found'
  | 'conflict'
  | 'too_large'
  | 'busy'
  | 'aborted'
  | 'internal'
  | 'upstream'
  | 'unavailable'
  | 'crashed'
  | 'storage_full';

/** The fields of an EngineError, as they cross the worker boundary. */
export interface EngineErrorData {
  kind: EngineErrorKind;
  message: string;
  /** OpenAI-style error code, e.g. 'model_unavailable'. */
  code: string;
  /** The request field at fault, if any. */
  param: string | null;
}

/**
 * The base of every error Vaani raises at its callers (`APIError` and its subclasses, `StoreError`,
 * the widgets' `WidgetError`): `catch (e) { if (e instanceof VaaniError) … }`. Here so that every
 * tier can extend it; the public entry exports it from src/page/clients/errors.ts.
 */
export class VaaniError extends Error {
  override name = 'VaaniError';
}

/** A failure every layer below the routes throws; it crosses comlink whole (src/protocol/wire.ts). */
export class EngineError extends Error {
  constructor(
    readonly kind: EngineErrorKind,
    message: string,
    readonly code: string,
    readonly param: string | null = null,
  ) {
    super(message);
    this.name = 'EngineError';
  }

  toData(): EngineErrorData {
    return { kind: this.kind, message: this.message, code: this.code, param: this.param };
  }

  static from(data: EngineErrorData): EngineError {
    return new EngineError(data.kind, data.message, data.code, data.param);
  }
}

/** An invalid request field: the most common EngineError. */
export const invalidInput = (message: string, param: string | null = null, code = 'invalid_value') =>
  new EngineError('invalid_input', message, code, param);

/** The message of any thrown value. */
export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
