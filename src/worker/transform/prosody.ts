import { medianF0, type PitchTrack } from './prosody-pitch';

/** How the source's F0 contour is reshaped around the target's median. 1 and 1 keep its shape. */
export interface ContourShape {
  /** Scales the slow movement of F0 (intonation) around the median, in log frequency. */
  range: number;
  /** Scales the fast movement of F0 (around the slow contour), in log frequency. */
  variation: number;
}

export const KEEP_CONTOUR: ContourShape = { range: 1, variation: 1 };

/**
 * The meaning of /audio/speech's stability and style for a pitch contour: stability 0.5 keeps the
 * source's fast pitch variation, lower amplifies it (up to 2× at 0), higher flattens it (none at 1);
 * style 0.35 keeps the intonation range, higher widens it (2.46× at 1), lower narrows it (0.62× at 0).
 */
export function contourShape(stability: number, style: number): ContourShape {
  return { range: 2 ** ((style - 0.35) * 2), variation: 2 * (1 - stability) };
}

/** Half-width, in hops, of the moving median that separates intonation from fast variation. */
const SLOW_HALF_WIDTH = 12;
/** Half-width, in hops, of the smoothing applied to the final factors. */
const SMOOTH_HALF_WIDTH = 1;
/** Largest departure from the plain median-to-median ratio, in octaves (±7 semitones). */
const MAX_OCTAVES = 7 / 12;

function movingMedian(values: Float32Array, halfWidth: number): Float32Array {
  return values.map((value, i) => {
    if (!Number.isFinite(value)) return NaN;
    const window = [...values.subarray(Math.max(0, i - halfWidth), i + halfWidth + 1)]
      .filter(Number.isFinite)
      .sort((a, b) => a - b);
    return window[window.length >> 1]!;
  });
}

/** Fills NaN gaps by linear interpolation between known neighbours, holding the ends. */
function fillGaps(values: Float32Array): Float32Array {
  const known = [...values.keys()].filter((i) => Number.isFinite(values[i]));
  const filled = new Float32Array(values.length);
  if (known.length === 0) return filled;
  let k = 0;
  for (let i = 0; i < values.length; i++) {
    while (k < known.length && known[k]! < i) k++;
    if (k === known.length) filled[i] = values[known[k - 1]!]!;
    else if (k === 0 || known[k] === i) filled[i] = values[known[k]!]!;
    else {
      const left = known[k - 1]!;
      const right = known[k]!;
      filled[i] = values[left]! + ((i - left) / (right - left)) * (values[right]! - values[left]!);
    }
  }
  return filled;
}

function smooth(values: Float32Array, halfWidth: number): Float32Array {
  return values.map((_, i) => {
    const window = values.subarray(Math.max(0, i - halfWidth), i + halfWidth + 1);
    return window.reduce((a, b) => a + b, 0) / window.length;
  });
}

/**
 * Pitch factor per hop of the track that moves the source's median F0 to `targetF0` and reshapes
 * its contour. Unvoiced hops take the factor of their voiced neighbours; with no voiced hop at all
 * every factor is 1 (there is no pitch to move).
 */
export function pitchFactors(track: PitchTrack, targetF0: number, shape: ContourShape): Float32Array {
  const sourceMedian = medianF0(track);
  if (!Number.isFinite(sourceMedian)) return new Float32Array(track.f0.length).fill(1);
  const base = Math.log2(targetF0 / sourceMedian);
  const log = track.f0.map(Math.log2);
  const slow = movingMedian(log, SLOW_HALF_WIDTH);
  const center = Math.log2(sourceMedian);
  const octaves = log.map((value, i) => {
    if (!Number.isFinite(value)) return NaN;
    const wanted = center + shape.range * (slow[i]! - center) + shape.variation * (value - slow[i]!);
    return base + Math.max(-MAX_OCTAVES, Math.min(MAX_OCTAVES, wanted - value));
  });
  return smooth(fillGaps(octaves), SMOOTH_HALF_WIDTH).map((value) => 2 ** value);
}
