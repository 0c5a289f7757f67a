import { DataStore } from '../../src/worker/data/collection';
import { row } from '../support/rows';
import { fillCsvStore, openDataBench, percentile, post, sentence, shortQuery } from '../support/data-bench';
import type { Scenario, ScenarioResult } from '../types';
import { withOthers } from '../support/cpu';

const QUERIES = 40;
/** The encoder's width (multilingual-e5-small). */
const DIM = 384;
/** The largest store: written with precomputed vectors, a file of `FILE_ROWS` chunks at a time. */
const LARGE = 100_000;
const FILE_ROWS = 10_000;
/** Seeded unit vectors of the encoder's width (stand-ins for embedded chunks: ranking costs the same). */
function unitVectors(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5;
  };
  return () => {
    const vector = Float32Array.from({ length: DIM }, next);
    let norm = 0;
    for (const value of vector) norm += value * value;
    return vector.map((value) => value / Math.sqrt(norm));
  };
}

/**
 * A store of `LARGE` chunks written straight into the data database (the data worker's own
 * DataStore, here in the page): the bench's sentences with precomputed vectors, so that setting it
 * up does not embed 100,000 texts.
 */
async function largeStore(database: string, model: string): Promise<string> {
  const direct = await DataStore.open(database);
  const store = await direct.createStore({ name: `rows-${LARGE}`, metadata: {}, expires_after: null });
  const vector = unitVectors(LARGE);
  const origin = { model, source: 'bench', revision: 'main', dimensions: DIM, prefix: 'passage: ' };
  for (let file = 0; file * FILE_ROWS < LARGE; file++) {
    const uploaded = await direct.putFile(
      {
        object: 'file',
        bytes: 0,
        filename: `rows-${file}.csv`,
        purpose: 'assistants',
        status: 'processed',
        expires_at: null,
        status_details: null,
        type: 'text/csv',
      },
      new Uint8Array(),
    );
    await direct.addFiles(store.id, [{ file_id: uploaded.id, attributes: {} }], false);
    const chunks = Array.from({ length: FILE_ROWS }, (_, index) => {
      const text = sentence(file * FILE_ROWS + index);
      return { index, text, indexed: text, headings: [], vector: vector() };
    });
    const strategy = { max_chunk_size_tokens: 800, chunk_overlap_tokens: 400 };
    await direct.complete(store.id, uploaded.id, chunks, strategy, origin, false);
  }
  return store.id;
}

/**
 * Search p50/p95 through the route at 1,000, 10,000 and 100,000 chunks (query embedded by
 * the 12-layer model, q8; the smaller stores filled by its 1-layer twin of the same width, the largest
 * written with precomputed vectors) and the first search after a reload. The grounded answer's time
 * to first token has its own scenario, bench/scenarios/grounded.ts.
 */
const data: Scenario = async (env) => {
  // q8: what embed-v1 runs on WASM by default (onnx/model_quantized.onnx); the fp32 figures are in docs/performance.md.
  const { urls, database, make, notes } = await openDataBench('data', 'q8');
  const rows: ScenarioResult[] = [];

  // Search stores: CSV files whose rows are one chunk each, embedded by the 1-layer twin.
  const filler = make(urls.fill);
  const stores: Record<number, string> = {};
  for (const size of [1000, 10_000]) {
    const store = await fillCsvStore(filler, `rows-${size}`, size);
    stores[size] = store;
  }
  filler.dispose();

  const setUp = performance.now();
  stores[LARGE] = await largeStore(database, 'embed-v1');
  env.log(`wrote ${LARGE} chunks with precomputed vectors in ${((performance.now() - setUp) / 1000).toFixed(1)} s`);

  let searcher = make(urls.encoder);
  // The sentence the rows have always used (32–42 tokens with the bench's 1,000-entry vocabulary), and a short query (three words).
  let query = (i: number) => sentence(i * 31 + 5);
  const search = (size: number, i: number) =>
    post(searcher, `/vector_stores/${stores[size]}/search`, { query: query(i), max_num_results: 10 });
  const timed = async (size: number, i: number) => {
    const start = performance.now();
    await (await search(size, i)).json();
    return performance.now() - start;
  };
  // Where a search's time goes: the same query embedded alone (its tokens counted), and ranked by meaning alone.
  const tokens: number[] = [];
  const embedOnly = async (i: number) => {
    const start = performance.now();
    const body = await (await post(searcher, '/embeddings', { model: 'embed-v1', input: query(i) })).json();
    const ms = performance.now() - start;
    tokens.push(body.usage?.prompt_tokens ?? NaN);
    return ms;
  };
  const semanticOnly = async (size: number, i: number) => {
    const start = performance.now();
    const body = { query: query(i), max_num_results: 10, ranking_options: { ranker: 'none' } };
    await (await post(searcher, `/vector_stores/${stores[size]}/search`, body)).json();
    return performance.now() - start;
  };
  for (const [size, kind] of [1000, 10_000, LARGE].flatMap((n) => [[n, 'sentence'] as const, [n, 'short'] as const])) {
    query = kind === 'short' ? (i) => shortQuery(i * 31 + 5) : (i) => sentence(i * 31 + 5);
    tokens.length = 0;
    const cold = await timed(size, 0);
    const times: number[] = [];
    const embedTimes: number[] = [];
    const semanticTimes: number[] = [];
    const { othersCores } = await withOthers(async () => {
      for (let i = 1; i <= QUERIES; i++) {
        times.push(await timed(size, i));
        embedTimes.push(await embedOnly(i));
        semanticTimes.push(await semanticOnly(size, i));
      }
    });
    const id = kind === 'short' ? `data.search.${size}.short-query` : `data.search.${size}`;
    const label = kind === 'short' ? ` (a three-word query)` : '';
    const searchNotes = {
      ...notes,
      chunks: size,
      queries: QUERIES,
      query:
        kind === 'short' ? `three of the bench's words, e.g. '${shortQuery(5)}'` : `a sentence, e.g. '${sentence(5)}'`,
      queryTokensP50: percentile(tokens, 50),
      firstSearchMs: cold,
      embedOnlyP50: percentile(embedTimes, 50),
      semanticOnlyP50: percentile(semanticTimes, 50),
      othersCores,
      includes: 'query embedding + hybrid ranking + route',
      ...(size === LARGE ? { vectors: 'precomputed seeded unit vectors' } : {}),
    };
    env.log(
      `search at ${size}${label}: first ${cold.toFixed(0)} ms, p50 ${percentile(times, 50).toFixed(1)} ms (embedding alone ${percentile(embedTimes, 50).toFixed(1)}, semantic only ${percentile(semanticTimes, 50).toFixed(1)}; other jobs ${othersCores} cores)`,
    );
    rows.push(
      row(`${id}.p50`, `search at ${size} chunks${label}, p50`, 'ms', percentile(times, 50), null, false, searchNotes),
    );
    rows.push(
      row(`${id}.p95`, `search at ${size} chunks${label}, p95`, 'ms', percentile(times, 95), null, false, searchNotes),
    );
  }

  // First search after a reload: a new instance (new workers; weights and chunks in IndexedDB), so
  // the model loads from the weight store and the store's index from the data database.
  searcher.dispose();
  query = (i) => sentence(i * 31 + 5);
  searcher = make(urls.encoder);
  const modelLoad = await embedOnly(QUERIES + 1);
  searcher.dispose();
  for (const size of [10_000, LARGE]) {
    searcher = make(urls.encoder);
    const { value: first, othersCores } = await withOthers(() => timed(size, QUERIES + 1));
    env.log(`first search after reload at ${size}: ${first.toFixed(0)} ms (other jobs ${othersCores} cores)`);
    rows.push(
      row(
        `data.search.${size}.first`,
        `first search after reload at ${size} chunks (model and index load included)`,
        'ms',
        first,
        null,
        false,
        {
          ...notes,
          chunks: size,
          firstEmbeddingMs: modelLoad,
          othersCores,
          includes: 'encoder load from the weight store + index load + query embedding',
        },
      ),
    );
    if (size !== LARGE) searcher.dispose();
  }

  searcher.dispose();
  await new Promise<void>((resolve) => {
    const request = indexedDB.deleteDatabase(database);
    request.onsuccess = request.onerror = request.onblocked = () => resolve();
  });
  return rows;
};

export default data;
