import type { AudioResult } from '../../protocol/audio';

/** Whether typed arrays are little-endian here (WAV and `pcm` are), so samples can be written through an Int16Array. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Float samples as 16-bit little-endian integers at byte `offset` of `buffer`, clipped to [-1, 1]. */
export function toInt16(samples: Float32Array, buffer: ArrayBuffer, offset: number): void {
  if (LITTLE_ENDIAN) {
    const out = new Int16Array(buffer, offset, samples.length);
    for (let i = 0; i < samples.length; i++) {
      const s = samples[i]!;
      out[i] = s < 0 ? Math.max(-1, s) * 0x8000 : Math.min(1, s) * 0x7fff;
    }
    return;
  }
  const view = new DataView(buffer);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-1, Math.min(1, samples[i]!));
    view.setInt16(offset + i * 2, s < 0 ? s * 0x8000 : s * 0x7fff, true);
  }
}

/** 16-bit PCM mono WAV bytes. */
export function encodeWav({ samples, sampleRate }: AudioResult): ArrayBuffer {
  const buffer = new ArrayBuffer(44 + samples.length * 2);
  const view = new DataView(buffer);
  const ascii = (offset: number, text: string) =>
    [...text].forEach((c, i) => view.setUint8(offset + i, c.charCodeAt(0)));
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + samples.length * 2, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  ascii(36, 'data');
  view.setUint32(40, samples.length * 2, true);
  toInt16(samples, buffer, 44);
  return buffer;
}
