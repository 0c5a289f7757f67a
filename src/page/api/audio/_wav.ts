import { encodeWav } from '../../../common/audio/encode/wav';
import type { AudioResult } from '../../../protocol/speech';

/** A WAV answer (the audio routes' default format). */
export const wavResponse = (audio: AudioResult, headers: Record<string, string> = {}) =>
  new Response(encodeWav(audio), { headers: { 'content-type': 'audio/wav', ...headers } });
