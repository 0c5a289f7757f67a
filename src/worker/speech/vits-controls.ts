/**
 * How speed, stability and style become a VITS voice's own controls (Piper and sherpa-onnx):
 * - length_scale = the voice's length_scale / speed (speed 2 speaks in half the time);
 * - noise_scale = the voice's noise_scale × 2 × (1 − stability): 0.5 keeps the voice's own, 1 is the
 *   steadiest (no sampling noise), 0 twice as varied;
 * - noise_w = the voice's noise_w × 2^((style − 0.35) × 2): 0.35 keeps the voice's own duration
 *   noise, 1 livelier rhythm (× 2.46), 0 more even (× 0.62).
 */
export interface VitsScales {
  noiseScale: number;
  lengthScale: number;
  noiseW: number;
}

/** Piper's and sherpa-onnx's defaults when a voice names none. */
export const VITS_DEFAULTS: VitsScales = { noiseScale: 0.667, lengthScale: 1, noiseW: 0.8 };

const clamp01 = (value: number) => Math.min(1, Math.max(0, value));

export function vitsScales(
  voice: Partial<VitsScales>,
  request: { speed: number; stability: number; style: number },
): VitsScales {
  const own = { ...VITS_DEFAULTS, ...voice };
  return {
    noiseScale: own.noiseScale * 2 * (1 - clamp01(request.stability)),
    lengthScale: own.lengthScale / request.speed,
    noiseW: own.noiseW * 2 ** ((clamp01(request.style) - 0.35) * 2),
  };
}
