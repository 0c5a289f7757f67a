import { wasmThreads } from '../../src/common/backends/ort';
import { createVaani } from '../../src/index';

/** bench/prepare/data.ts (and grounded.ts, which reuses data's models) writes this pointer. */
export const DATA_POINTER = '/test/.fixtures/bench-data.json';

/**
 * The data benches' setup: the models' URLs from the pointer, the WASM threads, a fresh database,
 * `make(encoder)` for a Vaani on that database with the chat model and the given encoder, and the
 * notes every row carries.
 */
export async function openDataBench(name: string) {
  const pointer = await fetch(DATA_POINTER);
  if (!pointer.ok)
    throw new Error(`${DATA_POINTER} is missing: run bench/prepare/${name}.ts first (npm run bench does).`);
  const urls = (await pointer.json()) as { encoder: string; fill: string; chat: string };
  const threads = wasmThreads();
  const database = `bench-${name}-${Date.now()}`;
  const make = (encoder: string) =>
    createVaani({
      backend: 'wasm',
      threads,
      data: { database },
      models: { 'embed-v1': { baseURL: encoder, dtype: 'fp32' }, 'chat-v2': { baseURL: urls.chat, dtype: 'fp32' } },
    });
  const notes = { encoder: `${urls.encoder} (multilingual-e5-small layer sizes, 12 layers, fp32)`, threads };
  return { urls, threads, database, make, notes };
}
