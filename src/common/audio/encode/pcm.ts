import type { AudioResult } from '../../../protocol/speech';
import { resample } from '../resample';
import { toInt16 } from './wav';

/** The rate of `pcm` answers: OpenAI's (its SDK examples play raw speech at 24 kHz). */
export const PCM_RATE = 24_000;

/** Raw 16-bit little-endian mono samples at 24 kHz, no header. */
export async function encodePcm({ samples, sampleRate }: AudioResult): Promise<ArrayBuffer> {
  const at24k = await resample(samples, sampleRate, PCM_RATE);
  const buffer = new ArrayBuffer(at24k.length * 2);
  toInt16(at24k, buffer, 0);
  return buffer;
}
