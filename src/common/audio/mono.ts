import { decodeAudio, type DecodeOptions } from './decode';
import { resample } from './resample';

/** The average of the channels (a copy when there is one). */
export function toMono(channels: readonly Float32Array[]): Float32Array {
  if (channels.length === 1) return channels[0]!.slice();
  const mono = new Float32Array(channels[0]?.length ?? 0);
  for (const channel of channels) {
    for (let i = 0; i < mono.length; i++) mono[i]! += channel[i]! / channels.length;
  }
  return mono;
}

export interface MonoAudio {
  samples: Float32Array;
  sampleRate: number;
  /** The file's own sample rate (equal to sampleRate when no rate was asked for). */
  sourceRate: number;
}

/** Decodes a file to mono, resampled to `sampleRate` when given (e.g. 16000 for speech recognition). */
export async function decodeMono(bytes: Uint8Array, sampleRate?: number, options?: DecodeOptions): Promise<MonoAudio> {
  const decoded = await decodeAudio(bytes, options);
  const mono = toMono(decoded.channels);
  const rate = sampleRate ?? decoded.sampleRate;
  return { samples: await resample(mono, decoded.sampleRate, rate), sampleRate: rate, sourceRate: decoded.sampleRate };
}
