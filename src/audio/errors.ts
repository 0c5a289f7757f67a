import { ApiError } from '../api/errors';

/**
 * Problems with uploaded audio. They cross a worker boundary by `name` and `message` only (that is
 * all comlink keeps of an Error), so the name carries the kind.
 */
export type AudioProblem = 'InvalidAudioError' | 'AudioTooLongError';

const codes: Record<AudioProblem, string> = {
  InvalidAudioError: 'invalid_audio',
  AudioTooLongError: 'audio_too_long',
};

export class AudioInputError extends Error {
  constructor(problem: AudioProblem, message: string) {
    super(message);
    this.name = problem;
  }
}

/** A 400 naming `file` for an audio problem (also one rebuilt by comlink); anything else unchanged. */
export function toAudioApiError(error: unknown): unknown {
  if (!(error instanceof Error) || !(error.name in codes)) return error;
  return new ApiError(400, error.message, codes[error.name as AudioProblem], 'file');
}
