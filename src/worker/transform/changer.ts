import { resample } from '../../common/audio/resample';
import type { VoiceTarget } from '../../protocol/transform';
import { checkpoint } from '../../protocol/cancel';
import { warpFormants } from './changer-formants';
import { boundsOf, playback } from './changer-resample';
import { sonicStretch } from '../../common/audio/sonic';
import { KEEP_CONTOUR, pitchFactors, type ContourShape } from './prosody';
import { trackPitch } from './prosody-pitch';

/** Pitch is tracked at this rate (or the input's, if lower): F0 needs no more. */
const ANALYSIS_RATE = 16000;
/** The pitch factor may change every 10 ms. */
const HOP_SECONDS = 0.01;

export interface ChangeOptions {
  /** Output duration is input / speed. Default 1 (timing kept). */
  speed?: number;
  /** Contour reshaping; default keeps the source's contour. */
  shape?: ContourShape;
}

/**
 * Converts mono speech towards a target voice: its F0 contour moved to the target's median (and
 * reshaped), its formants scaled by the target's formant scale, its timing kept (or scaled by
 * speed). Per 10 ms block with pitch factor p: the envelope is warped by formantScale / p; tape-like
 * playback moves pitch and envelope by p (leaving formants × formantScale) and Sonic's time
 * stretch restores the timing. Sonic's local timing error (up to about a pitch period) is
 * magnified by the playback that follows it, so Sonic runs after the playback when pitch goes
 * down and before it when pitch goes up.
 */
export async function changeVoice(
  samples: Float32Array,
  sampleRate: number,
  target: VoiceTarget,
  options: ChangeOptions = {},
  signal?: AbortSignal,
): Promise<Float32Array> {
  const speed = options.speed ?? 1;
  const hop = Math.round(sampleRate * HOP_SECONDS);
  const analysisRate = Math.min(sampleRate, ANALYSIS_RATE);
  const analysis = await resample(samples, sampleRate, analysisRate);
  const hops = Math.ceil(samples.length / hop);
  const track = trackPitch(analysis, analysisRate, { hopSeconds: hop / sampleRate, hops });
  const factors = pitchFactors(track, target.medianF0, options.shape ?? KEEP_CONTOUR);
  const factorAt = (sample: number) => factors[Math.max(0, Math.min(hops - 1, Math.floor(sample / hop)))]!;
  const warped = warpFormants(samples, sampleRate, (sample) => target.formantScale / factorAt(sample));
  if (signal) await checkpoint(signal);

  const source = boundsOf(Array.from({ length: hops }, (_, i) => Math.min(hop, samples.length - i * hop)));
  const lengths = (scale: (factor: number) => number) =>
    boundsOf([...factors].map((factor, i) => (source[i + 1]! - source[i]!) * scale(factor)));
  const planned = lengths(() => 1 / speed);
  const middle = [...factors].sort((a, b) => a - b)[hops >> 1] ?? 1;
  if (middle >= 1) {
    const stretchedBounds = lengths((factor) => factor / speed);
    const stretched = await sonicStretch(
      warped,
      sampleRate,
      source,
      factors.map((factor) => speed / factor),
      signal,
    );
    return fit(playback(stretched, stretchedBounds, planned), planned);
  }
  const playedBounds = lengths((factor) => 1 / factor);
  const played = playback(warped, source, playedBounds);
  if (signal) await checkpoint(signal);
  return fit(
    await sonicStretch(
      played,
      sampleRate,
      playedBounds,
      factors.map((factor) => speed / factor),
      signal,
    ),
    planned,
  );
}

/** Exactly the planned length: Sonic's output can differ by a few samples. */
function fit(samples: Float32Array, bounds: Float64Array): Float32Array {
  const length = Math.round(bounds[bounds.length - 1]!);
  if (samples.length === length) return samples;
  const exact = new Float32Array(length);
  exact.set(samples.subarray(0, length));
  return exact;
}
