import { wrap } from 'comlink';
import { wasmThreads } from '../../src/common/backends/ort';
import { createVaani } from '../../src/index';
import { INGEST_CALL, ingestCalls } from '../../src/page/engines/_ingest';
import { prepareChunks } from '../../src/worker/data/ingest';
import { EncoderTokenizer } from '../../src/worker/embeddings/tokenizer';
import { makePdf } from '../../test/support/pdf';
import { rowsAgainst } from '../support/rows';
import type { EmbedBare } from '../support/embed-bare.worker';
import type { EmbedTransformers } from '../support/embed-transformers.worker';
import type { BenchEnv, Scenario, ScenarioResult } from '../types';
import { post, sentence } from '../support/data-bench';

/** bench/prepare/ingest.ts (the data bench's models) writes this pointer. */
const POINTER = '/test/.fixtures/bench-data.json';
const PAGES = 16;
/**
 * How often the ingest client asks for its file's status: `ai.data`'s interval. At 20 ms the polls
 * took 14 s of CPU (page and data worker) in an 80 s ingest on two cores, which the encoder lost.
 */
const POLL_MS = 250;

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

/**
 * Ingest throughput: a generated 16-page PDF through files + vector stores (parse, chunk, embed by
 * the 12-layer e5-small-shape encoder, store), beside transformers.js and the bare onnxruntime-web
 * loop embedding the same chunks.
 */
const ingest: Scenario = async (env) => {
  const urls = (await (await fetch(POINTER)).json()) as { encoder: string };
  const threads = wasmThreads();
  const database = `bench-ingest-${Date.now()}`;
  const make = (encoder: string) =>
    createVaani({
      backend: 'wasm',
      threads,
      data: { database },
      models: { 'embed-v1': { baseURL: encoder, dtype: 'fp32' } },
    });
  const rows: ScenarioResult[] = [];
  const notes = { encoder: `${urls.encoder} (multilingual-e5-small layer sizes, 12 layers, fp32)`, threads };

  // A 16-page PDF, 12 lines a page, auto chunking.
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
  const pdf = makePdf(
    Array.from({ length: PAGES }, (_, p) => ({
      heading: `Section ${p + 1}`,
      lines: Array.from({ length: 12 }, (_, l) => sentence(p * 12 + l)),
    })),
  );
  /** Seconds from upload to `completed` of the PDF into a new store, and its chunk count. */
  const timed = async (name: string) => {
    const store = (await (await post(ai, '/vector_stores', { name })).json()).id;
    const started = performance.now();
    const entry = await client(store, new File([pdf as Uint8Array<ArrayBuffer>], 'bench.pdf'));
    const seconds = (performance.now() - started) / 1000;
    if (entry.status !== 'completed') throw new Error(`ingest failed: ${JSON.stringify(entry.last_error)}`);
    const content = await ai.fetch(`${ai.baseURL}/vector_stores/${store}/files/${entry.id}/content`, {
      headers: { authorization: 'Bearer b' },
    });
    const chunks: number = (await content.json()).data.length;
    env.log(`${name}: ingested ${PAGES} pages, ${chunks} chunks in ${seconds.toFixed(1)} s`);
    return { seconds, chunks };
  };
  // 2 s of embeddings before anything is timed, as each peer gets (V8 tiers WASM up while it runs).
  const until = performance.now() + 2000;
  while (performance.now() < until) await post(ai, '/embeddings', { model: 'embed-v1', input: ['warm up'] });
  // Vaani before and after the peers, the mean of the two: the shared machine's load moves over minutes.
  const first = await timed('before the peers');
  const peers = await ingestPeers(env, urls.encoder, threads, pdf, first.chunks);
  const second = await timed('after the peers');
  const { chunks } = first;
  const seconds = (first.seconds + second.seconds) / 2;
  const ingestNotes = {
    ...notes,
    pages: PAGES,
    chunks,
    seconds,
    runs: [first.seconds, second.seconds],
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

  await new Promise<void>((resolve) => {
    const request = indexedDB.deleteDatabase(database);
    request.onsuccess = request.onerror = request.onblocked = () => resolve();
  });
  return rows;
};

export default ingest;
