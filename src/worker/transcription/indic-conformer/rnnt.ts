import { pieceOf, type TimedToken } from './tokens';
import type { LanguageVocabulary } from './vocab';

export interface Prediction<S> {
  output: Float32Array;
  state: S;
}

/** The RNN-T networks as greedy decoding sees them; `joint` returns the language's logits (local ids). */
export interface RnntModel<S> {
  /** The prediction network's first input (config.json SOS) and its zero state. */
  sos: number;
  initial: S;
  predict(token: number, state: S): Promise<Prediction<S>>;
  joint(frame: number, prediction: Float32Array): Promise<Float32Array>;
}

/**
 * Greedy RNN-T as the published inference script runs it: per encoder frame, emit the best token
 * until the blank wins or `maxSymbols` were tried; the prediction network advances only on emission.
 */
export async function rnntGreedy<S>(
  model: RnntModel<S>,
  frames: number,
  vocab: LanguageVocabulary,
  maxSymbols: number,
  signal?: AbortSignal,
): Promise<TimedToken[]> {
  const tokens: TimedToken[] = [];
  let last = model.sos;
  let state = model.initial;
  let prediction: Prediction<S> | undefined;
  for (let t = 0; t < frames && !signal?.aborted; t++) {
    for (let symbols = 0; symbols < maxSymbols; symbols++) {
      prediction ??= await model.predict(last, state);
      const logits = await model.joint(t, prediction.output);
      let best = 0;
      for (let k = 1; k < logits.length; k++) if (logits[k]! > logits[best]!) best = k;
      if (best === vocab.blank) break;
      state = prediction.state;
      last = best;
      prediction = undefined;
      const piece = pieceOf(vocab, best);
      if (piece !== undefined) tokens.push({ id: best, piece, start: t, end: t + 1 });
    }
  }
  return tokens;
}
