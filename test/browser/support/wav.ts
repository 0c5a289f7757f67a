/** Reads a 16-bit PCM mono WAV (what /v1/audio/* answer) into float samples, checking its header. */
export function readWav(bytes: Uint8Array): {
  samples: Float32Array;
  sampleRate: number;
  channels: number;
  bits: number;
} {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ascii = (offset: number) => String.fromCharCode(...bytes.subarray(offset, offset + 4));
  if (ascii(0) !== 'RIFF' || ascii(8) !== 'WAVE' || ascii(36) !== 'data') throw new Error('not a canonical WAV file');
  const channels = view.getUint16(22, true);
  const sampleRate = view.getUint32(24, true);
  const bits = view.getUint16(34, true);
  const count = view.getUint32(40, true) / 2;
  const samples = new Float32Array(count);
  for (let i = 0; i < count; i++) samples[i] = view.getInt16(44 + i * 2, true) / 32768;
  return { samples, sampleRate, channels, bits };
}
