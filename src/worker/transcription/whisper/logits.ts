import type { WhisperConfig } from './config';

/** log Σ exp(logits), computed stably. */
export function logSumExp(logits: Float32Array): number {
  let max = -Infinity;
  for (let i = 0; i < logits.length; i++) if (logits[i]! > max) max = logits[i]!;
  if (max === -Infinity) return max;
  let sum = 0;
  for (let i = 0; i < logits.length; i++) sum += Math.exp(logits[i]! - max);
  return max + Math.log(sum);
}

/**
 * Whisper's rules on the next token's logits, as OpenAI's decoder applies them (ApplyTimestampRules):
 * suppressed tokens; blank and end-of-text as the first token; and when timestamps are on,
 * no `<|notimestamps|>`, a timestamp first, timestamps in pairs, timestamps that never go back (a
 * segment closes strictly after it opened, the next opens no earlier than the last closed), and a timestamp
 * whenever the timestamps together are likelier than any single text token.
 */
export function applyWhisperRules(
  logits: Float32Array,
  generated: readonly number[],
  config: WhisperConfig,
  timestamps: boolean,
): void {
  const { eot, noTimestamps, timestampBegin } = config.ids;
  for (const id of config.suppressTokens) logits[id] = -Infinity;
  if (generated.length === 0) for (const id of config.beginSuppressTokens) logits[id] = -Infinity;
  if (!timestamps) return;

  logits[noTimestamps] = -Infinity;
  if (generated.length === 0) {
    logits.fill(-Infinity, 0, timestampBegin);
    if (config.maxInitialTimestampIndex !== undefined)
      logits.fill(-Infinity, timestampBegin + config.maxInitialTimestampIndex + 1);
    return;
  }
  const isTimestamp = (token: number | undefined) => token !== undefined && token >= timestampBegin;
  const last = generated[generated.length - 1];
  const penultimate = generated.length < 2 ? undefined : generated[generated.length - 2];
  if (isTimestamp(last)) {
    if (generated.length < 2 || isTimestamp(penultimate)) logits.fill(-Infinity, timestampBegin);
    else logits.fill(-Infinity, 0, eot);
  }
  let lastTimestamp: number | undefined;
  for (let i = generated.length - 1; i >= 0 && lastTimestamp === undefined; i--)
    if (isTimestamp(generated[i])) lastTimestamp = generated[i];
  if (lastTimestamp !== undefined) {
    // A segment closes strictly after it opened; the next one may open where the last one closed.
    const lowest = isTimestamp(last) && !isTimestamp(penultimate) ? lastTimestamp : lastTimestamp + 1;
    logits.fill(-Infinity, timestampBegin, Math.min(lowest, logits.length));
  }
  const logSum = logSumExp(logits);
  let timestampMass = 0;
  for (let id = timestampBegin; id < logits.length; id++) timestampMass += Math.exp(logits[id]! - logSum);
  let bestText = -Infinity;
  for (let id = 0; id < timestampBegin; id++) if (logits[id]! > bestText) bestText = logits[id]!;
  bestText -= logSum;
  if (Math.log(timestampMass) > bestText) logits.fill(-Infinity, 0, timestampBegin);
}

/** The next token: the most likely at temperature 0, else a draw from softmax(logits / temperature). */
export function pickToken(logits: Float32Array, temperature: number, random: () => number = Math.random): number {
  if (temperature <= 0) {
    let best = 0;
    for (let id = 1; id < logits.length; id++) if (logits[id]! > logits[best]!) best = id;
    return best;
  }
  let max = -Infinity;
  for (let id = 0; id < logits.length; id++) if (logits[id]! > max) max = logits[id]!;
  const weights = new Float64Array(logits.length);
  for (let id = 0; id < logits.length; id++) weights[id] = Math.exp((logits[id]! - max) / temperature);
  let total = 0;
  for (let id = 0; id < weights.length; id++) total += weights[id]!;
  let target = random() * total;
  for (let id = 0; id < weights.length; id++) {
    target -= weights[id]!;
    if (target <= 0 && weights[id]! > 0) return id;
  }
  return weights.findLastIndex((weight) => weight > 0);
}
