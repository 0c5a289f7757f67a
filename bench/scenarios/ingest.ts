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
import type { Scenario, ScenarioResult } from '../types';
import { post, sentence } from '../support/data-bench';
import { withOthers } from '../support/cpu';

/** bench/prepare/ingest.ts (the data bench's models) writes this pointer. */
const POINTER = '/test/.fixtures/bench-data.json';
const PAGES = 16;
/**
 * How often the ingest client asks for its file's status: `ai.data`'s interval. At 20 ms the polls
 * took 14 s of CPU (page and data worker) in an 80 s ingest on two cores, which the encoder lost.
 */
const POLL_MS = 250;
/** What embed-v1 runs on WASM by default: onnx/model_quantized.onnx (the fp32 rows' figures are in docs/performance.md). */
const DTYPE = 'q8';

/**
 * The peers of ingest: transformers.js's feature-extraction pipeline and the bare onnxruntime-web
 * loop embedding the chunks Vaani cut from the same PDF (cut here again by the same code and
 * tokenizer; the count is checked against Vaani's), in the engine's calls (`ingestCalls`), same
 * threads and graph. Each leg runs 2 s before it is timed (V8 tiers WASM up while it runs; see the
 * memory bench) and reports other jobs' cores meanwhile.
 */
async function ingestPeers(
  encoder: string,
  threads: number,
  { chunks, texts, ids }: Awaited<ReturnType<typeof cutChunks>>,
) {
  const workers = [
    new Worker(new URL('../support/embed-transformers.worker.ts', import.meta.url), { type: 'module' }),
    new Worker(new URL('../support/embed-bare.worker.ts', import.meta.url), { type: 'module' }),
  ] as const;
  const transformers = wrap<EmbedTransformers>(workers[0]);
  const bare = wrap<EmbedBare>(workers[1]);
  const used = await transformers.load(encoder, threads, DTYPE);
  await bare.load(encoder, threads, DTYPE);
  const timeAll = async (run: (from: number, to: number) => Promise<unknown>) => {
    const until = performance.now() + 2000;
    while (performance.now() < until) await run(0, 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const { value: seconds, othersCores } = await withOthers(async () => {
      const start = performance.now();
      for (const [from, to] of ingestCalls(chunks)) await run(from, to);
      return (performance.now() - start) / 1000;
    });
    return { seconds, othersCores };
  };
  return {
    used,
    chunks: chunks.length,
    tokensPerChunk: ids.reduce((sum, row) => sum + row.length, 0) / ids.length,
    transformers: () => timeAll((from, to) => transformers.embed(texts.slice(from, to))),
    bare: () => timeAll((from, to) => bare.embed(ids.slice(from, to))),
    dispose: () => workers.forEach((worker) => worker.terminate()),
  };
}

/** The PDF's chunks as Vaani cuts them (same code and tokenizer), their encoder texts and ids. */
async function cutChunks(encoder: string, pdf: Uint8Array) {
  const base = new URL(encoder, location.href);
  const json = async (file: string) => (await fetch(new URL(file, base))).json();
  const tokenizer = new EncoderTokenizer(await json('tokenizer.json'), await json('tokenizer_config.json'), 512);
  const prefix = 'passage: ';
  const window = 512 - tokenizer.encode(prefix).ids.length;
  const { chunks } = await prepareChunks({ name: 'bench.pdf', type: '', bytes: pdf }, undefined, {
    count: (text) => tokenizer.count(text),
    window,
  });
  const texts = chunks.map((chunk) => prefix + chunk.indexed);
  const ids = texts.map((text) => tokenizer.encode(text).ids);
  return { chunks, texts, ids };
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
      models: { 'embed-v1': { baseURL: encoder, dtype: DTYPE } },
    });
  const rows: ScenarioResult[] = [];
  const notes = {
    encoder: `${urls.encoder} (multilingual-e5-small layer sizes, 12 layers, ${DTYPE})`,
    dtype: DTYPE,
    threads,
  };

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
  /** Seconds from upload to `completed` of the PDF into a new store, its chunk count, and other jobs' cores meanwhile. */
  const timed = async (name: string, file = pdf) => {
    const store = (await (await post(ai, '/vector_stores', { name })).json()).id;
    const started = performance.now();
    const { value: entry, othersCores } = await withOthers(() =>
      client(store, new File([file as Uint8Array<ArrayBuffer>], 'bench.pdf')),
    );
    const seconds = (performance.now() - started) / 1000;
    if (entry.status !== 'completed') throw new Error(`ingest failed: ${JSON.stringify(entry.last_error)}`);
    const content = await ai.fetch(`${ai.baseURL}/vector_stores/${store}/files/${entry.id}/content`, {
      headers: { authorization: 'Bearer b' },
    });
    const chunks: number = (await content.json()).data.length;
    env.log(`${name}: ingested ${chunks} chunks in ${seconds.toFixed(1)} s (other jobs ${othersCores} cores)`);
    return { seconds, chunks, othersCores };
  };
  // 2 s of embeddings before anything is timed, on the first chunk as each peer gets (V8 tiers WASM
  // up while it runs, and a full window runs other kernels' paths than a short text).
  const cut = await cutChunks(urls.encoder, pdf);
  const until = performance.now() + 2000;
  while (performance.now() < until) await post(ai, '/embeddings', { model: 'embed-v1', input: cut.texts.slice(0, 1) });
  // A page's first file also starts the data worker and loads pdf.js and the tokenizer there (the
  // peers load theirs untimed): a one-page PDF first, timed apart (notes.firstFile).
  const firstFile = await timed(
    'first file after load (1 page)',
    makePdf([{ heading: 'Section 1', lines: Array.from({ length: 12 }, (_, l) => sentence(l)) }]),
  );
  // Two rounds of Vaani, transformers.js, the bare loop, each engine's faster leg in the rows: the
  // first round's WASM work ran slower for every engine (docs/performance.md), and other jobs on the
  // shared machine only ever slow a leg (each leg's other jobs' cores are in the notes).
  const peers = await ingestPeers(urls.encoder, threads, cut);
  type Leg = { seconds: number; othersCores: number | null };
  const legs: Record<'vaani' | 'transformers' | 'bare', Leg[]> = { vaani: [], transformers: [], bare: [] };
  let chunks = 0;
  for (let round = 1; round <= 2; round++) {
    const leg = await timed(`round ${round}`);
    if (leg.chunks !== peers.chunks)
      throw new Error(`the peers' chunks (${peers.chunks}) are not Vaani's (${leg.chunks})`);
    chunks = leg.chunks;
    legs.vaani.push(leg);
    legs.transformers.push(await peers.transformers());
    legs.bare.push(await peers.bare());
    env.log(
      `round ${round}, peers on the same ${chunks} chunks: transformers.js ${legs.transformers.at(-1)!.seconds.toFixed(1)} s (other jobs ${legs.transformers.at(-1)!.othersCores} cores), bare loop ${legs.bare.at(-1)!.seconds.toFixed(1)} s (${legs.bare.at(-1)!.othersCores})`,
    );
  }
  peers.dispose();
  const best = (runs: Leg[]) => Math.min(...runs.map((run) => run.seconds));
  const seconds = best(legs.vaani);
  const ingestNotes = {
    ...notes,
    pages: PAGES,
    chunks,
    seconds,
    legs,
    firstFile: { seconds: firstFile.seconds, chunks: firstFile.chunks },
    tokensPerChunk: peers.tokensPerChunk,
    chunking: 'auto (model window)',
    pollMs: POLL_MS,
    encoderCall: INGEST_CALL,
    peers: 'the same chunks, "passage: " + heading path + text, embedded alone (no parse, no store)',
    timed: "each engine's faster of two legs (V T B V T B)",
  };
  const metric = (what: string) =>
    `PDF ingest, ${what} (parse, chunk, embed, store) vs peers embedding the same chunks alone`;
  const against = (seconds: number | undefined) => (units: number) => (seconds ? units / seconds : null);
  const vs = (units: number) => [
    {
      suffix: '',
      name: `transformers.js feature-extraction, ${peers.used} threads`,
      value: against(best(legs.transformers))(units),
    },
    {
      suffix: '.vs-bare',
      name: 'bare onnxruntime-web loop (pre-tokenised ids)',
      value: against(best(legs.bare))(units),
    },
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
