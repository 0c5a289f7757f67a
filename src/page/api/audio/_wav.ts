import { wavChunks } from '../../../common/audio/encode/wav';
import type { AudioResult } from '../../../protocol/speech';

/**
 * An audio answer's body: a stream of the file's chunks as they are. A buffer body is copied when
 * the Response is made and read back in pieces (Chromium); the caller's `arrayBuffer()` or
 * `blob()` reads these in one go.
 */
export const audioBody = (chunks: Uint8Array<ArrayBuffer>[]): ReadableStream<Uint8Array<ArrayBuffer>> =>
  new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });

/** A WAV answer (the audio routes' default format). */
export const wavResponse = (audio: AudioResult, headers: Record<string, string> = {}) =>
  new Response(audioBody(wavChunks(audio)), { headers: { 'content-type': 'audio/wav', ...headers } });
