import type { AudioResult } from '../../../protocol/speech';

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

/** 16-bit PCM mono WAV bytes (an engine's own 16-bit samples copied as they are). */
export function encodeWav(audio: AudioResult): ArrayBuffer {
  const { sampleRate, pcm16 } = audio;
  const length = pcm16?.length ?? audio.samples.length;
  const buffer = new ArrayBuffer(44 + length * 2);
  const view = new DataView(buffer);
  const ascii = (offset: number, text: string) =>
    [...text].forEach((c, i) => view.setUint8(offset + i, c.charCodeAt(0)));
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + length * 2, true);
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
  view.setUint32(40, length * 2, true);
  if (pcm16 && LITTLE_ENDIAN) new Int16Array(buffer, 44, length).set(pcm16);
  else if (pcm16) pcm16.forEach((sample, i) => view.setInt16(44 + i * 2, sample, true));
  else toInt16(audio.samples, buffer, 44);
  return buffer;
}
