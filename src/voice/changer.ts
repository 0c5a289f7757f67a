import { resample } from '../audio/resample';
import type { Checkpoint } from './isolate';
import { warpFormants } from './changer-formants';
import { pitchByPlayback } from './changer-resample';
import { sonicStretch } from './changer-sonic';
import { KEEP_CONTOUR, pitchFactors, type ContourShape } from './prosody';
import { trackPitch } from './prosody-pitch';

/** Pitch is tracked at this rate (or the input's, if lower): F0 needs no more. */
const ANALYSIS_RATE = 16000;
/** The pitch factor may change every 10 ms. */
const HOP_SECONDS = 0.01;

/** What the voice changer needs to know of a target voice. */
export interface VoiceTarget {
  /** The voice's median F0, in Hz. */
  medianF0: number;
  /** How far its formants sit from the source's: 1.15 moves every formant 15 % up. */
  formantScale: number;
}

export interface ChangeOptions {
  /** Output duration is input / speed. Default 1 (timing kept). */
  speed?: number;
  /** Contour reshaping; default keeps the source's contour. */
  shape?: ContourShape;
}

/**
 * Converts mono speech towards a target voice: its F0 contour moved to the target's median (and
 * reshaped), its formants scaled by the target's formant scale, its timing kept (or scaled by
 * speed). Per 10 ms block with pitch factor p: the envelope is warped by formantScale / p, Sonic
 * stretches the block by p / speed, and playing it back p times faster restores the timing and
 * moves pitch and envelope by p, leaving the formants scaled by exactly formantScale.
 */
export async function changeVoice(samples: Float32Array, sampleRate: number, target: VoiceTarget, options: ChangeOptions = {}, checkpoint?: Checkpoint): Promise<Float32Array> {
  const speed = options.speed ?? 1;
  const hop = Math.round(sampleRate * HOP_SECONDS);
  const analysisRate = Math.min(sampleRate, ANALYSIS_RATE);
  const analysis = await resample(samples, sampleRate, analysisRate);
  const track = trackPitch(analysis, analysisRate, { hopSeconds: hop / sampleRate, hops: Math.ceil(samples.length / hop) });
  const factors = pitchFactors(track, target.medianF0, options.shape ?? KEEP_CONTOUR);
  const factorAt = (sample: number) => factors[Math.max(0, Math.min(factors.length - 1, Math.floor(sample / hop)))]!;
  const warped = warpFormants(samples, sampleRate, (sample) => target.formantScale / factorAt(sample));
  if (checkpoint) await checkpoint();
  const stretched = await sonicStretch(warped, sampleRate, hop, factors.map((factor) => speed / factor), checkpoint);
  if (checkpoint) await checkpoint();
  return pitchByPlayback(stretched, hop, factors, speed, Math.round(samples.length / speed));
}
