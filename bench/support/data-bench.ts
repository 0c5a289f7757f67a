import { wasmThreads } from '../../src/common/backends/ort';
import { createVaani } from '../../src/index';

/** bench/prepare/data.ts (and grounded.ts, which reuses data's models) writes this pointer. */
export const DATA_POINTER = '/test/.fixtures/bench-data.json';

/**
 * The data benches' setup: the models' URLs from the pointer, the WASM threads, a fresh database,
 * `make(encoder, dtype)` for a Vaani on that database with the chat model and the given encoder
 * (`dtype`: the 12-layer encoder's graph, fp32 or q8 — embed-v1's default on WASM; the 1-layer
 * filler has fp32 only), and the notes every row carries.
 */
export async function openDataBench(name: string, dtype: 'fp32' | 'q8' = 'fp32') {
  const pointer = await fetch(DATA_POINTER);
  if (!pointer.ok)
    throw new Error(`${DATA_POINTER} is missing: run bench/prepare/${name}.ts first (npm run bench does).`);
  const urls = (await pointer.json()) as { encoder: string; fill: string; chat: string };
  const threads = wasmThreads();
  const database = `bench-${name}-${Date.now()}`;
  const make = (encoder: string, encoderDtype = encoder === urls.fill ? 'fp32' : dtype) =>
    createVaani({
      backend: 'wasm',
      threads,
      data: { database },
      models: {
        'embed-v1': { baseURL: encoder, dtype: encoderDtype },
        'chat-v2': { baseURL: urls.chat, dtype: 'fp32' },
      },
    });
  const notes = { encoder: `${urls.encoder} (multilingual-e5-small layer sizes, 12 layers, ${dtype})`, dtype, threads };
  return { urls, threads, database, make, notes };
}

/** The words the benches' chunks (and grounded's questions) are made of. */
export const WORDS =
  'harbour pier lighthouse keeper weather ledger shipment library card vault saffron tea coffee train ticket'.split(
    ' ',
  );

/** Chunk `i` of the benches' stores: one sentence of the bench's words. */
export function sentence(i: number): string {
  const pick = (k: number) => WORDS[(i * 7 + k * 13) % WORDS.length];
  return `Record ${i}: the ${pick(1)} near the ${pick(2)} keeps the ${pick(3)} and the ${pick(4)}.`;
}

/** A short search query of the bench's words (three of them), as people type one. */
export function shortQuery(i: number): string {
  const pick = (k: number) => WORDS[(i * 7 + k * 13) % WORDS.length];
  return `${pick(1)} ${pick(2)} ${pick(3)}`;
}

export const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]!;

type Ai = ReturnType<typeof createVaani>;

/** POST JSON through `ai`'s fetch; a refused request throws its message. */
export const post = async (ai: Ai, path: string, body: unknown) => {
  const response = await ai.fetch(`${ai.baseURL}${path}`, {
    method: 'POST',
    headers: { authorization: 'Bearer bench', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${(await response.json()).error.message}`);
  return response;
};

/**
 * A vector store of `rows` chunks: one CSV whose rows are a chunk each (`sentence(i)`), uploaded and
 * added through the routes, waited for until ingested. Returns the store's id.
 */
export async function fillCsvStore(ai: Ai, name: string, rows: number): Promise<string> {
  const csv = ['id,text', ...Array.from({ length: rows }, (_, i) => `${i},"${sentence(i)}"`)].join('\n');
  const store = (await (await post(ai, '/vector_stores', { name })).json()).id as string;
  const form = new FormData();
  form.set('purpose', 'assistants');
  form.set('file', new File([csv], `${name}.csv`, { type: 'text/csv' }));
  const file = await (
    await ai.fetch(`${ai.baseURL}/files`, { method: 'POST', headers: { authorization: 'Bearer b' }, body: form })
  ).json();
  await post(ai, `/vector_stores/${store}/files`, { file_id: file.id });
  for (;;) {
    const got = await (
      await ai.fetch(`${ai.baseURL}/vector_stores/${store}`, { headers: { authorization: 'Bearer b' } })
    ).json();
    if (got.file_counts.in_progress === 0) {
      if (got.file_counts.completed !== 1) throw new Error(`filling ${name} failed`);
      return store;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
