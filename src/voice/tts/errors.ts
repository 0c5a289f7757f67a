import { ApiError } from '../../api/errors';

/** A failure the page turns into an OpenAI-shaped error; crosses the worker boundary as data. */
export class TtsError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string,
    readonly param: string | null = null,
  ) {
    super(message);
    this.name = 'TtsError';
  }

  toData(): TtsErrorData {
    return { status: this.status, message: this.message, code: this.code, param: this.param };
  }
}

export interface TtsErrorData {
  status: number;
  message: string;
  code: string;
  param: string | null;
}

export const toApiError = (error: TtsErrorData) => new ApiError(error.status, error.message, error.code, error.param);
