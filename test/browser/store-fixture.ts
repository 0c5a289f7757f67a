import { createHash } from 'node:crypto';
import type { Page } from '@playwright/test';
import type { ModelProgress, ModelStatus, StoreOptions, Vaani } from '../../src/index';
import type { FileSpec } from '../../src/protocol/weights';
import type * as Idb from '../../src/common/weights/idb';
import type { storeLoader } from '../../src/common/weights';

/** Small chunks so a 1.5 MB file spans several. */
export const CHUNK = 256 * 1024;

export interface FixtureFile {
  name: string;
  bytes: Uint8Array;
  sha256: string;
}

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

function randomBytes(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let state = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    out[i] = state & 0xff;
  }
  return out;
}

/** A real ONNX ModelProto start (ir_version 8, producer "pytorch", then a graph field spanning the rest) over filler bytes. */
function onnxLike(length: number, seed: number): Uint8Array {
  const fields = [0x08, 0x08, 0x12, 0x07, ...new TextEncoder().encode('pytorch'), 0x3a];
  const graphLength = length - fields.length - 3;
  const head = [...fields, (graphLength & 0x7f) | 0x80, ((graphLength >> 7) & 0x7f) | 0x80, graphLength >> 14];
  const bytes = randomBytes(length, seed);
  bytes.set(head);
  return bytes;
}

/** A model's three files: config.json, model.onnx (ONNX start) and model.onnx_data (random, `dataSize` bytes). */
export function fixtureModel(seed: number, dataSize = 1_500_000): FixtureFile[] {
  const files = [
    { name: 'config.json', bytes: new TextEncoder().encode(JSON.stringify({ model_type: 'fixture', seed })) },
    { name: 'model.onnx', bytes: onnxLike(40_000, seed + 1) },
    { name: 'model.onnx_data', bytes: randomBytes(dataSize, seed + 2) },
  ];
  return files.map((file) => ({ ...file, sha256: sha256(file.bytes) }));
}

export interface ModelDef {
  baseURL: string;
  files: (string | FileSpec)[];
}

export interface Outcome {
  status?: ModelStatus;
  error?: { name: string; code?: string; message: string };
  progress: ModelProgress[];
}

declare global {
  interface Window {
    Store: { storeLoader: typeof storeLoader; idb: typeof Idb };
    storeWorker(): {
      load(
        base: string,
        file: string,
        options: object,
      ): Promise<{ byteLength: number; bufferByteLength: number; offset: number; sha256: string }>;
      has(base: string, file: string): Promise<boolean>;
    };
    ai: Vaani;
    events: { type: string; detail: unknown }[];
    loading: AbortController | undefined;
  }
}

/** Opens the store test page with vite's HMR socket answered by a silent mock, so edits elsewhere in the tree never reload it mid-test. */
export async function openStorePage(page: Page): Promise<void> {
  await page.routeWebSocket(/./, () => {});
  await page.goto('/test/browser/pages/store.html');
  await page.waitForFunction(() => document.title === 'ready');
}

/** Creates `window.ai` with these models and store options; its events are collected in `window.events`. */
export async function setup(
  page: Page,
  models: Record<string, ModelDef>,
  store: StoreOptions = { chunkSize: CHUNK },
): Promise<void> {
  await page.evaluate(
    ({ models, store }) => {
      window.ai?.dispose();
      window.ai = window.Vaani.createVaani({ models, store });
      window.events = [];
      for (const type of ['progress', 'loaded', 'evicted', 'deleted', 'cleared']) {
        window.ai.models.addEventListener(type, (event) =>
          window.events.push({ type, detail: (event as CustomEvent).detail }),
        );
      }
    },
    { models, store },
  );
}

/** `ai.models.load(id)` in the page; `abortAfter` aborts once that many bytes have arrived. */
export async function loadModel(page: Page, id: string, abortAfter?: number): Promise<Outcome> {
  return page.evaluate(
    async ({ id, abortAfter }) => {
      const progress: ModelProgress[] = [];
      const controller = new AbortController();
      window.loading = controller;
      try {
        const status = await window.ai.models.load(id, {
          signal: controller.signal,
          onProgress(value) {
            progress.push(value);
            if (abortAfter !== undefined && value.loaded >= abortAfter) controller.abort();
          },
        });
        return { status, progress };
      } catch (e) {
        const error = e as Error & { code?: string };
        return { error: { name: error.name, code: error.code, message: error.message }, progress };
      }
    },
    { id, abortAfter },
  );
}

/** What the chunk and index databases hold for `url`: chunk count, manifest, partial record. */
export async function storedKeys(
  page: Page,
  url: string,
): Promise<{ chunks: number; manifest: boolean; partial: boolean }> {
  return page.evaluate(async (url) => {
    const { idb } = window.Store;
    await idb.getChunks(url, 0); // opens (and on a fresh page creates) the chunk database
    const open = indexedDB.open(idb.CHUNKS_DB);
    const db = await new Promise<IDBDatabase>((resolve) => (open.onsuccess = () => resolve(open.result)));
    const keys = await new Promise<IDBValidKey[]>((resolve) => {
      const request = db.transaction('chunks').objectStore('chunks').getAllKeys();
      request.onsuccess = () => resolve(request.result);
    });
    db.close();
    const chunks = keys.filter((key) => Array.isArray(key) && key[0] === url).length;
    return {
      chunks,
      manifest: (await idb.readManifest(url)) !== undefined,
      partial: (await idb.readPartial(url)) !== undefined,
    };
  }, url);
}
