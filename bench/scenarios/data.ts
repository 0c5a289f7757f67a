import { wasmThreads } from '../../src/common/backends/ort';
import { createVaani } from '../../src/index';
import { makePdf } from '../../test/support/pdf';
import { DataStore } from '../../src/worker/data/collection';
import { row, rowsAgainst } from '../support/rows';
import { wrap } from 'comlink';
import { INGEST_CALL, ingestCalls } from '../../src/page/engines/_ingest';
import { prepareChunks } from '../../src/worker/data/ingest';
import { EncoderTokenizer } from '../../src/worker/embeddings/tokenizer';
import type { EmbedBare } from '../support/embed-bare.worker';
import type { EmbedTransformers } from '../support/embed-transformers.worker';
import type { BenchEnv, Scenario, ScenarioResult } from '../types';

/** bench/prepare/data.ts writes the models and this pointer. */
const POINTER = '/test/.fixtures/bench-data.json';
const PAGES = 16;
const QUERIES = 40;
const TTFT_ROUNDS = 5;
/**
 * How often the ingest client asks for its file's status: `ai.data`'s interval. At 20 ms the polls
 * took 14 s of CPU (page and data worker) in an 80 s ingest on two cores, which the encoder lost.
 */
const POLL_MS = 250;
/** The encoder's width (multilingual-e5-small). */
const DIM = 384;
/** The largest store: written with precomputed vectors, a file of `FILE_ROWS` chunks at a time. */
const LARGE = 100_000;
const FILE_ROWS = 10_000;
const WORDS =
  'harbour pier lighthouse keeper weather ledger shipment library card vault saffron tea coffee train ticket'.split(
    ' ',
  );

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]!;

function sentence(i: number): string {
  const pick = (k: number) => WORDS[(i * 7 + k * 13) % WORDS.length];
  return `Record ${i}: the ${pick(1)} near the ${pick(2)} keeps the ${pick(3)} and the ${pick(4)}.`;
}

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
 * The peers of ingest: transformers.js's feature-extraction pipeline and the bare onnxruntime-web
 * loop embedding the chunks Vaani cut from the same PDF (cut here again by the same code and
 * tokenizer; the count is checked against Vaani's), in the engine's calls (`ingestCalls`), same threads.
 * Each runs 2 s before it is timed (V8 tiers WASM up while it runs; see the memory bench).
 */
async function ingestPeers(env: BenchEnv, encoder: string, threads: number, pdf: Uint8Array, expected: number) {
  const base = new URL(encoder, location.href);
  const json = async (file: string) => (await fetch(new URL(file, base))).json();
  const tokenizer = new EncoderTokenizer(await json('tokenizer.json'), await json('tokenizer_config.json'), 512);
  const prefix = 'passage: ';
  const window = 512 - tokenizer.encode(prefix).ids.length;
  const { chunks } = await prepareChunks({ name: 'bench.pdf', type: '', bytes: pdf }, undefined, {
    count: (text) => tokenizer.count(text),
    window,
  });
  if (chunks.length !== expected) throw new Error(`the peers' chunks (${chunks.length}) are not Vaani's (${expected})`);
  const texts = chunks.map((chunk) => prefix + chunk.indexed);
  const ids = texts.map((text) => tokenizer.encode(text).ids);
  const workers = [
    new Worker(new URL('../support/embed-transformers.worker.ts', import.meta.url), { type: 'module' }),
    new Worker(new URL('../support/embed-bare.worker.ts', import.meta.url), { type: 'module' }),
  ] as const;
  const transformers = wrap<EmbedTransformers>(workers[0]);
  const bare = wrap<EmbedBare>(workers[1]);
  const used = await transformers.load(encoder, threads);
  await bare.load(encoder, threads);
  const timeAll = async (run: (from: number, to: number) => Promise<unknown>) => {
    const until = performance.now() + 2000;
    while (performance.now() < until) await run(0, 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const start = performance.now();
    for (const [from, to] of ingestCalls(chunks)) await run(from, to);
    return (performance.now() - start) / 1000;
  };
  const transformersSeconds = await timeAll((from, to) => transformers.embed(texts.slice(from, to)));
  const bareSeconds = await timeAll((from, to) => bare.embed(ids.slice(from, to)));
  env.log(
    `peers on the same ${texts.length} chunks: transformers.js ${transformersSeconds.toFixed(1)} s, bare loop ${bareSeconds.toFixed(1)} s`,
  );
  for (const worker of workers) worker.terminate();
  return {
    used,
    transformers: transformersSeconds,
    bare: bareSeconds,
    notes: {
      tokensPerChunk: ids.reduce((sum, row) => sum + row.length, 0) / ids.length,
      transformersSeconds,
      bareSeconds,
    },
  };
}

type Ai = ReturnType<typeof createVaani>;
const post = async (ai: Ai, path: string, body: unknown) => {
  const response = await ai.fetch(`${ai.baseURL}${path}`, {
    method: 'POST',
    headers: { authorization: 'Bearer bench', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${(await response.json()).error.message}`);
  return response;
};

/** Milliseconds until the first SSE event that `first` accepts. */
async function untilFirst(response: Promise<Response>, first: (event: Record<string, unknown>) => boolean) {
  const start = performance.now();
  const reader = (await response).body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    buffer += read.value;
    const parts = buffer.split('\n\n');
    buffer = parts.pop()!;
    for (const part of parts)
      if (part.startsWith('data: {') && first(JSON.parse(part.slice(6)))) {
        const ms = performance.now() - start;
        await reader.cancel();
        return ms;
      }
  }
  throw new Error('the stream ended before its first token');
}

/**
 * Ingest throughput (a generated PDF through files + vector stores, the 12-layer e5-small-shape
 * encoder), search p50/p95 through the route at 1,000, 10,000 and 100,000 chunks (query embedded by
 * the 12-layer model; the smaller stores filled by its 1-layer twin of the same width, the largest
 * written with precomputed vectors), the first search after a reload, and time to first token of a
 * grounded answer vs a plain chat answer to the same question.
 */
const data: Scenario = async (env) => {
  const pointer = await fetch(POINTER);
  if (!pointer.ok) throw new Error(`${POINTER} is missing: run bench/prepare/data.ts first (npm run bench does).`);
  const urls = (await pointer.json()) as { encoder: string; fill: string; chat: string };
  const threads = wasmThreads();
  const database = `bench-data-${Date.now()}`;
  const make = (encoder: string) =>
    createVaani({
      backend: 'wasm',
      threads,
      data: { database },
      models: { 'embed-v1': { baseURL: encoder, dtype: 'fp32' }, 'chat-v2': { baseURL: urls.chat, dtype: 'fp32' } },
    });
  const rows: ScenarioResult[] = [];
  const notes = { encoder: `${urls.encoder} (multilingual-e5-small layer sizes, 12 layers, fp32)`, threads };

  // Ingest: a 40-page PDF, 12 lines a page, auto chunking.
  const ai = make(urls.encoder);
  const client = async (store: string, file: File) => {
    const form = new FormData();
    form.set('purpose', 'assistants');
    form.set('file', file);
    const uploaded = await (
      await ai.fetch(`${ai.baseURL}/files`, { method: 'POST', headers: { authorization: 'Bearer b' }, body: form })
    ).json();
    await post(ai, `/vector_stores/${store}/files`, { file_id: uploaded.id });
    for (;;) {
      const entry = await (
        await ai.fetch(`${ai.baseURL}/vector_stores/${store}/files/${uploaded.id}`, {
          headers: { authorization: 'Bearer b' },
        })
      ).json();
      if (entry.status !== 'in_progress') return entry;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  };
  await post(ai, '/embeddings', { model: 'embed-v1', input: ['warm up'] });
  const pdf = makePdf(
    Array.from({ length: PAGES }, (_, p) => ({
      heading: `Section ${p + 1}`,
      lines: Array.from({ length: 12 }, (_, l) => sentence(p * 12 + l)),
    })),
  );
  const pdfStore = (await (await post(ai, '/vector_stores', { name: 'pdf' })).json()).id;
  const started = performance.now();
  const entry = await client(pdfStore, new File([pdf as Uint8Array<ArrayBuffer>], 'bench.pdf'));
  const seconds = (performance.now() - started) / 1000;
  if (entry.status !== 'completed') throw new Error(`ingest failed: ${JSON.stringify(entry.last_error)}`);
  const chunks = (
    await (
      await ai.fetch(`${ai.baseURL}/vector_stores/${pdfStore}/files/${entry.id}/content`, {
        headers: { authorization: 'Bearer b' },
      })
    ).json()
  ).data.length;
  env.log(`ingested ${PAGES} pages, ${chunks} chunks in ${seconds.toFixed(1)} s`);
  const peers = await ingestPeers(env, urls.encoder, threads, pdf, chunks);
  const ingestNotes = {
    ...notes,
    pages: PAGES,
    chunks,
    seconds,
    chunking: 'auto (model window)',
    pollMs: POLL_MS,
    encoderCall: INGEST_CALL,
    peers: 'the same chunks, "passage: " + heading path + text, embedded alone (no parse, no store)',
    ...peers.notes,
  };
  const metric = (what: string) =>
    `PDF ingest, ${what} (parse, chunk, embed, store) vs peers embedding the same chunks alone`;
  const against = (seconds: number | undefined) => (units: number) => (seconds ? units / seconds : null);
  const vs = (units: number) => [
    {
      suffix: '',
      name: `transformers.js feature-extraction, ${peers.used} threads`,
      value: against(peers.transformers)(units),
    },
    { suffix: '.vs-bare', name: 'bare onnxruntime-web loop (pre-tokenised ids)', value: against(peers.bare)(units) },
  ];
  rows.push(
    ...rowsAgainst('data.ingest.pages', metric('pages/s'), 'pages/s', PAGES / seconds, true, ingestNotes, vs(PAGES)),
    ...rowsAgainst(
      'data.ingest.chunks',
      metric('chunks/s'),
      'chunks/s',
      chunks / seconds,
      true,
      ingestNotes,
      vs(chunks),
    ),
  );
  ai.dispose();

  // Search stores: CSV files whose rows are one chunk each, embedded by the 1-layer twin.
  const filler = make(urls.fill);
  const stores: Record<number, string> = {};
  for (const size of [1000, 10_000]) {
    const csv = ['id,text', ...Array.from({ length: size }, (_, i) => `${i},"${sentence(i)}"`)].join('\n');
    const store = (await (await post(filler, '/vector_stores', { name: `csv-${size}` })).json()).id;
    const form = new FormData();
    form.set('purpose', 'assistants');
    form.set('file', new File([csv], `rows-${size}.csv`, { type: 'text/csv' }));
    const file = await (
      await filler.fetch(`${filler.baseURL}/files`, {
        method: 'POST',
        headers: { authorization: 'Bearer b' },
        body: form,
      })
    ).json();
    await post(filler, `/vector_stores/${store}/files`, { file_id: file.id });
    for (;;) {
      const got = await (
        await filler.fetch(`${filler.baseURL}/vector_stores/${store}`, { headers: { authorization: 'Bearer b' } })
      ).json();
      if (got.file_counts.in_progress === 0) {
        if (got.file_counts.completed !== 1) throw new Error(`filling ${size} failed`);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    stores[size] = store;
  }
  filler.dispose();

  const setUp = performance.now();
  stores[LARGE] = await largeStore(database, 'embed-v1');
  env.log(`wrote ${LARGE} chunks with precomputed vectors in ${((performance.now() - setUp) / 1000).toFixed(1)} s`);

  let searcher = make(urls.encoder);
  const search = (size: number, i: number) =>
    post(searcher, `/vector_stores/${stores[size]}/search`, { query: sentence(i * 31 + 5), max_num_results: 10 });
  const timed = async (size: number, i: number) => {
    const start = performance.now();
    await (await search(size, i)).json();
    return performance.now() - start;
  };
  // Where a search's time goes: the same query embedded alone, and ranked by meaning alone.
  const embedOnly = async (i: number) => {
    const start = performance.now();
    await (await post(searcher, '/embeddings', { model: 'embed-v1', input: sentence(i * 31 + 5) })).json();
    return performance.now() - start;
  };
  const semanticOnly = async (size: number, i: number) => {
    const start = performance.now();
    const body = { query: sentence(i * 31 + 5), max_num_results: 10, ranking_options: { ranker: 'none' } };
    await (await post(searcher, `/vector_stores/${stores[size]}/search`, body)).json();
    return performance.now() - start;
  };
  for (const size of [1000, 10_000, LARGE]) {
    const cold = await timed(size, 0);
    const times: number[] = [];
    const embedTimes: number[] = [];
    const semanticTimes: number[] = [];
    for (let i = 1; i <= QUERIES; i++) {
      times.push(await timed(size, i));
      embedTimes.push(await embedOnly(i));
      semanticTimes.push(await semanticOnly(size, i));
    }
    const searchNotes = {
      ...notes,
      chunks: size,
      queries: QUERIES,
      firstSearchMs: cold,
      embedOnlyP50: percentile(embedTimes, 50),
      semanticOnlyP50: percentile(semanticTimes, 50),
      includes: 'query embedding + hybrid ranking + route',
      ...(size === LARGE ? { vectors: 'precomputed seeded unit vectors' } : {}),
    };
    env.log(
      `search at ${size}: first ${cold.toFixed(0)} ms, p50 ${percentile(times, 50).toFixed(1)} ms (embedding alone ${percentile(embedTimes, 50).toFixed(1)}, semantic only ${percentile(semanticTimes, 50).toFixed(1)})`,
    );
    rows.push(
      row(
        `data.search.${size}.p50`,
        `search at ${size} chunks, p50`,
        'ms',
        percentile(times, 50),
        null,
        false,
        searchNotes,
      ),
    );
    rows.push(
      row(
        `data.search.${size}.p95`,
        `search at ${size} chunks, p95`,
        'ms',
        percentile(times, 95),
        null,
        false,
        searchNotes,
      ),
    );
  }

  // First search after a reload: a new instance (new workers; weights and chunks in IndexedDB), so
  // the model loads from the weight store and the store's index from the data database.
  searcher.dispose();
  searcher = make(urls.encoder);
  const modelLoad = await embedOnly(QUERIES + 1);
  searcher.dispose();
  for (const size of [10_000, LARGE]) {
    searcher = make(urls.encoder);
    const first = await timed(size, QUERIES + 1);
    env.log(`first search after reload at ${size}: ${first.toFixed(0)} ms`);
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
          includes: 'encoder load from the weight store + index load + query embedding',
        },
      ),
    );
    if (size !== LARGE) searcher.dispose();
  }

  // Time to first token: grounded (search + passages in the prompt) vs plain chat, same question.
  const question = 'Which record keeps the saffron vault?';
  const grounded = () =>
    untilFirst(
      post(searcher, '/data/query', {
        query: question,
        vector_store_ids: [stores[1000]],
        stream: true,
        max_tokens: 4,
        temperature: 0,
      }),
      (e) => e.object === 'data.query.chunk',
    );
  const plain = () =>
    untilFirst(
      post(searcher, '/chat/completions', {
        model: 'chat-v2',
        messages: [{ role: 'user', content: question }],
        stream: true,
        max_tokens: 4,
        temperature: 0,
      }),
      (e) => Boolean((e.choices as { delta?: { content?: string } }[] | undefined)?.[0]?.delta?.content),
    );
  await plain();
  await grounded();
  const g: number[] = [];
  const p: number[] = [];
  for (let i = 0; i < TTFT_ROUNDS; i++) {
    g.push(await grounded());
    p.push(await plain());
  }
  const ttftNotes = {
    ...notes,
    chat: `${urls.chat} (Qwen2.5-0.5B layer sizes, 2 layers, fp32)`,
    passages: 5,
    rounds: TTFT_ROUNDS,
  };
  rows.push(
    row(
      'data.query.ttft',
      'time to first token, grounded answer',
      'ms',
      percentile(g, 50),
      { name: 'plain chat answer to the same question', value: percentile(p, 50) },
      false,
      ttftNotes,
    ),
  );
  searcher.dispose();
  await new Promise<void>((resolve) => {
    const request = indexedDB.deleteDatabase(database);
    request.onsuccess = request.onerror = request.onblocked = () => resolve();
  });
  return rows;
};

export default data;
