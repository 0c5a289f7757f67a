import { createVaani } from '../../src/index';
import { CHUNKS_DB, clearAll, deleteFile, readManifest } from '../../src/common/weights/idb';
import { storeLoader } from '../../src/common/weights';
import { toHex } from '../../src/common/weights/checks';
import { heldBytes } from '../support/memory';
import { quantile, timePaired } from '../support/stats';
import type { Scenario, ScenarioResult } from '../types';

const BASE = new URL('/test/.fixtures/bench-store/', location.href).href;
const FILE = 'weights.bin';
const URL_ = new URL(FILE, BASE).href;
const MB = 1024 * 1024;
const CHUNK = 32 * MB;
/** A smaller chunk, timed beside the default: a shorter write left after the last byte arrives. */
const SMALL_CHUNK = 8 * MB;

const request = <T>(r: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => ((r.onsuccess = () => resolve(r.result)), (r.onerror = () => reject(r.error))));

/** The plainest full read of the same chunks: one transaction, every Blob, joined into one buffer. */
async function rawRead(db: IDBDatabase, chunks: number): Promise<ArrayBuffer> {
  const store = db.transaction('chunks').objectStore('chunks');
  const blobs = await Promise.all(Array.from({ length: chunks }, (_, i) => request<Blob>(store.get([URL_, i]))));
  return new Blob(blobs).arrayBuffer();
}

/** Rate of the paced link (MiB/s): a fast home connection, well under what loopback reaches here. */
const PACED_MIBPS = 25;

const PLAIN = 'plain fetch().arrayBuffer() of the same URL, no cache';
const plainFetch = (url: string) => fetch(url, { cache: 'no-store' }).then((r) => r.arrayBuffer());

/**
 * What the weight store's write costs at least, whatever the store: the same fetch with each 32 MiB
 * chunk copied into a Blob (the browser's storage), nothing written to IndexedDB.
 */
async function blobFloor(url: string): Promise<Blob[]> {
  const response = await fetch(url, { cache: 'no-store' });
  const bytes = new Uint8Array(Number(response.headers.get('content-length')));
  const reader = response.body!.getReader();
  const blobs: Blob[] = [];
  let at = 0;
  let base = 0;
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    bytes.set(next.value, at);
    at += next.value.length;
    for (; at - base >= CHUNK; base += CHUNK) blobs.push(new Blob([bytes.subarray(base, base + CHUNK)]));
  }
  if (at > base) blobs.push(new Blob([bytes.subarray(base, at)]));
  return blobs;
}

/**
 * Cold loads through each store loader (the cache emptied first, not timed) and plain fetches of
 * `url`, plus `floor` when given, in rotating order so drift hits each alike; the first round warms
 * up and is dropped.
 */
async function coldLoads(
  loaders: Record<string, ReturnType<typeof storeLoader>>,
  url: string,
  rounds: number,
  extra: { floor?: (url: string) => Promise<unknown> } = {},
) {
  const runs: [string, () => Promise<unknown>][] = [
    ...Object.entries(loaders).map(([name, loader]): [string, () => Promise<unknown>] => [
      name,
      () => loader.load(FILE),
    ]),
    ['plain', () => plainFetch(url)],
  ];
  if (extra.floor) runs.push(['floor', () => extra.floor!(url)]);
  const times: Record<string, number[]> = Object.fromEntries(runs.map(([name]) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < runs.length; i++) {
      const [name, run] = runs[(round + i) % runs.length]!;
      if (name in loaders) await deleteFile(url);
      const started = performance.now();
      await run();
      if (round > 0) times[name]!.push(performance.now() - started);
    }
  }
  return times;
}

/** Milliseconds from a new service's first chat request to its first streamed content (engine worker started, model loaded). */
async function firstToken(base: string): Promise<number> {
  const ai = createVaani({ backend: 'wasm', models: { 'chat-v2': { baseURL: base } } });
  const started = performance.now();
  const response = await ai.fetch('/v1/chat/completions', {
    method: 'POST',
    headers: { authorization: 'Bearer bench', 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'chat-v2',
      messages: [{ role: 'user', content: 'नमस्ते' }],
      stream: true,
      max_tokens: 4,
    }),
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes('"content":"')) {
    const next = await reader.read();
    if (next.done) throw new Error(`no content streamed: ${text}`);
    text += decoder.decode(next.value, { stream: true });
  }
  const ms = performance.now() - started;
  await reader.cancel();
  ai.dispose();
  return ms;
}

/** Weight store: cache read vs raw IndexedDB, cold download vs plain fetch, memory held per loaded byte. */
const store: Scenario = async (env) => {
  const loader = storeLoader(BASE, { model: 'bench-store' });
  const plain = await plainFetch(URL_);
  const size = plain.byteLength;
  env.log(`file ${(size / MB).toFixed(0)} MiB`);

  // The SHA-256 a vaani-manifest.json gives: checked over the whole file once it is in.
  const hashStarted = performance.now();
  const sha256 = toHex(await crypto.subtle.digest('SHA-256', plain));
  const hashMs = performance.now() - hashStarted;
  const loaders = {
    store: loader,
    checked: storeLoader(BASE, { model: 'bench-store', files: [{ name: FILE, size, sha256 }] }),
    small: storeLoader(BASE, { model: 'bench-store', chunkSize: SMALL_CHUNK }),
  };
  const cold = await coldLoads(loaders, URL_, 7, { floor: blobFloor });
  const pacedURL = new URL(FILE, `${env.remoteURL}/paced/${PACED_MIBPS}/`).href;
  const paced = await coldLoads(
    { store: storeLoader(new URL('./', pacedURL).href, { model: 'bench-store' }) },
    pacedURL,
    4,
  );

  const manifest = (await readManifest(URL_))!;
  const open = indexedDB.open(CHUNKS_DB);
  const db = await request(open);
  const warm = await timePaired(
    20,
    () => loader.load(FILE),
    () => rawRead(db, manifest.chunks),
  );
  db.close();

  const before = await heldBytes();
  let weights: Uint8Array | undefined = await loader.load(FILE);
  const after = await heldBytes();
  const retained = before !== undefined && after !== undefined ? (after - before) / weights.byteLength : undefined;
  // eslint-disable-next-line no-useless-assignment -- drops the reference so the collector can free the buffer
  weights = undefined;
  await deleteFile(URL_);

  const chat = `${env.sharedURL}fixtures/tiny-random-llama-fp16-genai/`;
  await firstToken(chat);
  const ttft = { cold: [] as number[], warm: [] as number[] };
  for (let i = 0; i < 3; i++) {
    await clearAll();
    ttft.cold.push(await firstToken(chat));
    ttft.warm.push(await firstToken(chat));
  }
  await clearAll();

  const mbps = (ms: number) => size / MB / (ms / 1000);
  /** A cold download row: the store's median against another way's, both as MB/s. */
  const download = (id: string, link: string, store: number[], other: number[], name: string, notes = {}) => ({
    id,
    metric: `download, check and cache a file, then read it back: median MB/s (${link})`,
    unit: 'MB/s',
    value: mbps(quantile(store, 0.5)),
    baseline: { name, value: mbps(quantile(other, 0.5)) },
    higherIsBetter: true,
    notes: { runs: store.length, profile: 'on disk', ...notes },
  });
  const rows: ScenarioResult[] = [
    {
      id: 'store.cache-read.mbps',
      metric: `load a cached ${(size / MB).toFixed(0)} MiB file (${manifest.chunks} chunks) into one buffer: median MB/s`,
      unit: 'MB/s',
      value: mbps(quantile(warm.a, 0.5)),
      baseline: { name: 'raw IndexedDB read of the same chunks into one buffer', value: mbps(quantile(warm.b, 0.5)) },
      higherIsBetter: true,
      notes: { chunkSize: manifest.chunkSize, runs: warm.a.length },
    },
    download('store.download.mbps', 'loopback', cold.store!, cold.plain!, PLAIN),
    download(
      'store.download.floor.mbps',
      'loopback',
      cold.store!,
      cold.floor!,
      'the least a stored copy costs: the same fetch with each 32 MiB chunk copied into a Blob, nothing written',
    ),
    download('store.download.checked.mbps', 'loopback', cold.checked!, cold.plain!, PLAIN, {
      check: 'size and SHA-256 known (a vaani-manifest.json): the digest is taken once the file is in',
      sha256Ms: hashMs,
    }),
    download(
      'store.download.small-chunks.mbps',
      'loopback',
      cold.small!,
      cold.store!,
      `the store with its default ${CHUNK / MB} MiB chunks (this row: ${SMALL_CHUNK / MB} MiB)`,
    ),
    download('store.download.paced.mbps', `a link paced at ${PACED_MIBPS} MiB/s`, paced.store!, paced.plain!, PLAIN, {
      server: 'bench/remote.mjs /paced/',
    }),
  ];
  rows.push({
    id: 'store.chat.ttft-warm',
    metric: 'time to first token of a new service with the chat fixture (5.7 MB) cached: median ms',
    unit: 'ms',
    value: quantile(ttft.warm, 0.5),
    baseline: {
      name: 'the same with the cache empty (download, check, cache, read back)',
      value: quantile(ttft.cold, 0.5),
    },
    higherIsBetter: false,
    notes: { model: 'tiny-random-llama-fp16-genai', runs: ttft.warm.length },
  });
  if (retained !== undefined) {
    rows.push({
      id: 'store.memory.held-per-byte',
      metric: 'page memory held after loading a cached file, per byte of the file (1.0 = the weights exist once)',
      unit: 'bytes/byte',
      value: retained,
      baseline: null,
      higherIsBetter: false,
      notes: { fileBytes: size, before, after },
    });
  }
  return rows;
};

export default store;
