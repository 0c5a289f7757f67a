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

const HEADER_BYTES = 44;

/** The header of a 16-bit PCM mono WAV file of `length` samples, written at the start of `view`. */
function writeHeader(view: DataView, length: number, sampleRate: number): void {
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
}

/** 16-bit PCM mono WAV bytes (an engine's own 16-bit samples copied as they are). */
export function encodeWav(audio: AudioResult): ArrayBuffer {
  const { sampleRate, pcm16 } = audio;
  const length = pcm16?.length ?? audio.samples.length;
  const buffer = new ArrayBuffer(HEADER_BYTES + length * 2);
  const view = new DataView(buffer);
  writeHeader(view, length, sampleRate);
  if (pcm16 && LITTLE_ENDIAN) new Int16Array(buffer, HEADER_BYTES, length).set(pcm16);
  else if (pcm16) pcm16.forEach((sample, i) => view.setInt16(HEADER_BYTES + i * 2, sample, true));
  else toInt16(audio.samples, buffer, HEADER_BYTES);
  return buffer;
}

/**
 * The same WAV as chunks: an engine's 16-bit samples follow the header as they are, a view of
 * their own buffer (nothing copied; handing the chunks over moves that buffer), else one encoded buffer.
 */
export function wavChunks(audio: AudioResult): Uint8Array<ArrayBuffer>[] {
  const { pcm16 } = audio;
  if (!pcm16 || !LITTLE_ENDIAN) return [new Uint8Array(encodeWav(audio))];
  const header = new Uint8Array(HEADER_BYTES);
  writeHeader(new DataView(header.buffer), pcm16.length, audio.sampleRate);
  return [header, new Uint8Array(pcm16.buffer, pcm16.byteOffset, pcm16.byteLength)];
}
