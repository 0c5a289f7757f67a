import { loadSilero, sileroOnce, type SileroVad } from '../../common/audio/silero';
import { loadOrt } from '../../common/backends/ort';
import { EngineError } from '../../protocol/errors';

const silero = sileroOnce(async (url) => loadSilero(await loadOrt(false), url));

/** Silero VAD in a worker: loaded once on WASM, reset for a new clip; a failed load is `unavailable` and retried next time. */
export async function freshSilero(modelURL: string): Promise<SileroVad> {
  const vad = await silero(modelURL).catch((error: unknown) => {
    throw new EngineError(
      'unavailable',
      `The Silero VAD model could not be loaded: ${String(error)}`,
      'model_unavailable',
      'model',
    );
  });
  vad.reset();
  return vad;
}
