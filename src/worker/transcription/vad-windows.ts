import { decodeMono } from '../../common/audio/mono';
import {
  MAX_TRANSCRIPTION_SECONDS,
  MIN_TRANSCRIPTION_SECONDS,
  type TranscriptionEvents,
} from '../../protocol/transcription';
import { textEvents } from './text-events';
import { freshSilero } from './silero';

/**
 * What the workers that transcribe in Silero VAD windows (IndicConformer, Moonshine) do around
 * their model: decode the upload to 16 kHz mono, load the model, Silero's speech probabilities,
 * and the streamed text delivered before the answer.
 */
export async function inVadWindows<M, R>(
  signal: AbortSignal,
  job: { audio: Uint8Array; vadURL: string },
  events: TranscriptionEvents | undefined,
  load: () => Promise<M>,
  run: (started: M, samples: Float32Array, speech: Float32Array, onText?: (text: string) => void) => Promise<R>,
): Promise<R> {
  const { samples } = await decodeMono(job.audio, 16000, {
    maxSeconds: MAX_TRANSCRIPTION_SECONDS,
    minSeconds: MIN_TRANSCRIPTION_SECONDS,
  });
  const started = await load();
  const vad = await freshSilero(job.vadURL);
  const speech = await vad.probabilities(samples, { signal });
  const streamed = textEvents(events);
  const result = await run(started, samples, speech, streamed.text);
  await streamed.delivered();
  return result;
}
