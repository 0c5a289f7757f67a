import { speechWindows } from '../../../common/audio/speech-windows';
import { VAD_FRAME } from '../../../common/audio/vad-frame';
import type { Segment, Transcript } from '../../../protocol/transcription';
import { compressionRatio } from '../whisper/guards';
import type { Moonshine } from './model';
import { detokenise } from './tokens';

const SAMPLE_RATE = 16000;
/** Longest window decoded at once (Moonshine's positions are relative, but its training clips are short). */
export const MAX_WINDOW_SECONDS = 30;

export interface MoonshineTranscribeOptions {
  /** ISO 639-1 code the model was chosen for (its transcript's `language`). */
  language: string;
  /** Silero speech probabilities, one per VAD_FRAME samples. */
  speech: Float32Array;
  signal: AbortSignal;
  blocking?<T>(samples: number, run: () => Promise<T>): Promise<T>;
  onText?(soFar: string): void;
}

const blockingAsIs = <T>(_: number, run: () => Promise<T>) => run();

/**
 * Speech to text with a Moonshine-layout model: VAD-cut windows of at most 30 s, each encoded and
 * decoded greedily; one segment per window.
 */
export async function transcribeMoonshine(
  model: Moonshine,
  samples: Float32Array,
  options: MoonshineTranscribeOptions,
): Promise<Transcript> {
  const windows = speechWindows(options.speech, samples.length, {
    frame: VAD_FRAME,
    sampleRate: SAMPLE_RATE,
    maxSeconds: MAX_WINDOW_SECONDS,
  });
  const segments: Segment[] = [];
  for (const window of windows) {
    if (options.signal.aborted) break;
    const audio = samples.subarray(window.start, window.end);
    const { tokens, logprobs } = await (options.blocking ?? blockingAsIs)(audio.length, async () => {
      const encoded = await model.encode(audio);
      try {
        return await model.decode(encoded, options.signal);
      } finally {
        encoded.dispose();
      }
    });
    const text = detokenise(model.tokens, tokens);
    if (!text) continue;
    segments.push({
      id: segments.length,
      seek: Math.round((window.start / SAMPLE_RATE) * 100),
      start: window.start / SAMPLE_RATE,
      end: window.end / SAMPLE_RATE,
      text: ` ${text}`,
      tokens,
      temperature: 0,
      avg_logprob: logprobs.length ? logprobs.reduce((a, b) => a + b, 0) / logprobs.length : 0,
      compression_ratio: await compressionRatio(text),
      no_speech_prob: 0,
    });
    options.onText?.(segments.map((s) => s.text.trim()).join(' '));
  }
  return {
    task: 'transcribe',
    language: options.language,
    duration: samples.length / SAMPLE_RATE,
    text: segments.map((s) => s.text.trim()).join(' '),
    segments,
  };
}
