import * as Comlink from 'comlink';
import { storeLoader } from '../../../src/common/weights';
import type { StoreLoaderOptions } from '../../../src/common/weights';

const hex = (buffer: ArrayBuffer) =>
  Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');

/** Loads files through the store inside a worker, as an engine does, and describes what it got. */
Comlink.expose({
  async load(base: string, file: string, options: StoreLoaderOptions) {
    const bytes = await storeLoader(base, options).load(file);
    return {
      byteLength: bytes.byteLength,
      bufferByteLength: bytes.buffer.byteLength,
      offset: bytes.byteOffset,
      sha256: hex(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>)),
    };
  },
  has(base: string, file: string) {
    return storeLoader(base).has(file);
  },
});
