import type { Voice } from '../../../protocol/speech';
import { ApiError } from '../http/errors';

/** 404 `voice_not_found` unless the engine has the voice `id` (`asked`: the name the request gave). */
export function requireVoice(engine: { voices(): Voice[] }, id: string, asked = id): void {
  if (!engine.voices().some((voice) => voice.id === id))
    throw new ApiError(
      404,
      `The voice '${asked}' does not exist. GET /v1/voices lists the voices.`,
      'voice_not_found',
      'voice',
    );
}
