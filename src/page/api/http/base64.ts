/**
 * Base64 of bytes: the engine's `Uint8Array.prototype.toBase64` where it exists (Chromium 140+,
 * Firefox 133+, Safari 18.2+; far faster than building a string), else btoa over 32 KiB chunks.
 */
export function base64(bytes: Uint8Array): string {
  const native = (bytes as Uint8Array & { toBase64?: () => string }).toBase64;
  if (typeof native === 'function') return native.call(bytes);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
