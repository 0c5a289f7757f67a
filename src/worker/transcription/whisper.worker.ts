import { decodeMono } from '../../common/audio/mono';
import { loadWhisper, type StartedWhisper } from './whisper/load';
import { detectLanguage, transcribe } from './whisper/transcribe';
import {
  MAX_TRANSCRIPTION_SECONDS,
  MIN_TRANSCRIPTION_SECONDS,
  type TranscriptionEvents,
  type WhisperJob,
  type WhisperResult,
  type WhisperWorker,
} from '../../protocol/transcription';
import { checkpoint } from '../../protocol/cancel';
import type { Served } from '../../protocol/worker';
import { exposeEngine, reportProgress } from '../host/expose';
import { textEvents } from './text-events';
import { modelSlot } from '../host/model-slot';
import { freshSilero } from './silero';

const load = modelSlot<StartedWhisper>('speech recognition model', loadWhisper);

/**
 * Silero's speech probabilities when the request asks for VAD chunking: each frame reports progress,
 * every 32nd yields so that a cancel can arrive (ORT's runs do not reliably let it in).
 */
async function speechOf(job: WhisperJob, samples: Float32Array, signal: AbortSignal) {
  const { chunking } = job.params;
  if (!chunking) return undefined;
  const vad = await freshSilero(job.vadURL);
  const speech = await vad.probabilities(samples, { signal, yieldEvery: 32, onFrame: reportProgress });
  await checkpoint(signal);
  return { speech, chunking };
}

const api = {
  /** `events.text` (a comlink proxy, for streamed answers) hears the text so far after each window. */
  async transcribe(signal: AbortSignal, job: WhisperJob, events?: TranscriptionEvents): Promise<WhisperResult> {
    const { samples } = await decodeMono(job.audio, 16000, {
      maxSeconds: MAX_TRANSCRIPTION_SECONDS,
      minSeconds: MIN_TRANSCRIPTION_SECONDS,
    });
    const whisper = await load(job);
    const vad = await speechOf(job, samples, signal);
    const streamed = textEvents(events);
    const transcript = await transcribe(whisper, samples, {
      ...job.params,
      vad,
      signal,
      progress: reportProgress,
      text: streamed.text,
    });
    await streamed.delivered();
    return { transcript, backend: whisper.backend, languages: [...whisper.decoder.config.languages.keys()] };
  },
  /** The language Whisper hears in the first 30 s (its language token after <|startoftranscript|>). */
  async detect(_signal: AbortSignal, job: Omit<WhisperJob, 'params' | 'vadURL'>): Promise<string> {
    const { samples } = await decodeMono(job.audio, 16000, {
      maxSeconds: MAX_TRANSCRIPTION_SECONDS,
      minSeconds: MIN_TRANSCRIPTION_SECONDS,
    });
    const whisper = await load(job);
    return detectLanguage(whisper, whisper.mel.extract(samples));
  },
} satisfies Served<WhisperWorker>;

exposeEngine(api);
