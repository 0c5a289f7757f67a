import { decodeMono } from '../audio/mono';
import { loadWhisper, type StartedWhisper } from '../models/whisper/load';
import { detectLanguage, transcribe } from '../models/whisper/transcribe';
import {
  MAX_TRANSCRIPTION_SECONDS,
  MIN_TRANSCRIPTION_SECONDS,
  type TranscriptionEvents,
  type WhisperJob,
  type WhisperResult,
  type WhisperWorker,
} from '../protocol/transcription';
import type { CancelToken } from '../protocol/cancel';
import { cancelToken, exposeEngine, reportProgress } from './expose';
import { textEvents } from './text-events';
import { modelSlot } from './model-slot';
import { freshSilero } from './silero';

const load = modelSlot<StartedWhisper>('speech recognition model', loadWhisper);

/**
 * Silero's speech probabilities when the request asks for VAD chunking: each frame reports progress,
 * every 32nd yields so that a cancel can arrive (ORT's runs do not reliably let it in).
 */
async function speechOf(job: WhisperJob, samples: Float32Array, token: CancelToken) {
  const { chunking } = job.params;
  if (!chunking) return undefined;
  const vad = await freshSilero(job.vadURL);
  let frame = 0;
  const speech = await vad.probabilities(samples, () => {
    reportProgress();
    return ++frame % 32 === 0 ? token.stopped() : token.cancelled;
  });
  await token.checkpoint();
  return { speech, chunking };
}

const api = {
  /** `events.text` (a comlink proxy, for streamed answers) hears the text so far after each window. */
  async transcribe(job: WhisperJob, events?: TranscriptionEvents): Promise<WhisperResult> {
    const token = cancelToken();
    const { samples } = await decodeMono(job.audio, 16000, {
      maxSeconds: MAX_TRANSCRIPTION_SECONDS,
      minSeconds: MIN_TRANSCRIPTION_SECONDS,
    });
    const whisper = await load(job);
    const vad = await speechOf(job, samples, token);
    const streamed = textEvents(events);
    const transcript = await transcribe(whisper, samples, {
      ...job.params,
      vad,
      checkpoint: token.checkpoint,
      progress: reportProgress,
      text: streamed.text,
    });
    await streamed.delivered();
    return { transcript, backend: whisper.backend, languages: [...whisper.decoder.config.languages.keys()] };
  },
  /** The language Whisper hears in the first 30 s (its language token after <|startoftranscript|>). */
  async detect(job: Omit<WhisperJob, 'params' | 'vadURL'>): Promise<string> {
    const { samples } = await decodeMono(job.audio, 16000, {
      maxSeconds: MAX_TRANSCRIPTION_SECONDS,
      minSeconds: MIN_TRANSCRIPTION_SECONDS,
    });
    const whisper = await load(job);
    return detectLanguage(whisper, whisper.mel.extract(samples));
  },
} satisfies WhisperWorker;

exposeEngine(api);
