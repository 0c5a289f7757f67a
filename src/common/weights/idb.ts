import { clear, createStore, del, delMany, get, getMany, keys, set, update, type UseStore } from 'idb-keyval';
import type { Candidate } from './errors';
import type { CachedModel, FileState, Manifest, ModelRecord, Partial, Pin } from './types';

/** IndexedDB database of file chunks (Blobs keyed [url, index]). */
export const CHUNKS_DB = 'vaani-weights';
/** IndexedDB database of manifests, partial downloads and model records. */
export const INDEX_DB = 'vaani-weights-index';

let stores: { chunks: UseStore; index: UseStore } | undefined;
const db = () => (stores ??= { chunks: createStore(CHUNKS_DB, 'chunks'), index: createStore(INDEX_DB, 'entries') });

let available: Promise<boolean> | undefined;

/** Whether IndexedDB works here (private windows, sandboxed frames and blocked site data deny it); asked once per realm. */
export function storageAvailable(): Promise<boolean> {
  available ??= (async () => {
    try {
      await keys(db().index);
      return true;
    } catch {
      return false;
    }
  })();
  return available;
}

type IndexKey = ['manifest' | 'partial' | 'pin', string] | ['model', string];

export const readManifest = (url: string) => get<Manifest>(['manifest', url], db().index);
export const writeManifest = (manifest: Manifest) => set(['manifest', manifest.url], manifest, db().index);
export const readPartial = (url: string) => get<Partial>(['partial', url], db().index);
export const writePartial = (partial: Partial) => set(['partial', partial.url], partial, db().index);
export const deletePartial = (url: string) => del(['partial', url], db().index);
export const readPin = (url: string) => get<Pin>(['pin', url], db().index);
export const writePin = (pin: Pin) => set(['pin', pin.url], pin, db().index);

export const putChunk = (url: string, index: number, data: Blob) => set([url, index], data, db().chunks);

/** The chunks of a file in order; undefined when one is missing. */
export async function getChunks(url: string, count: number): Promise<Blob[] | undefined> {
  const blobs = await getMany<Blob>(
    Array.from({ length: count }, (_, i) => [url, i]),
    db().chunks,
  );
  return blobs.every((blob): blob is Blob => blob instanceof Blob) ? blobs : undefined;
}

/** Removes every trace of a file: its manifest first (so it is never used half-deleted), then chunks, then partial. */
export async function deleteFile(url: string): Promise<void> {
  await del(['manifest', url], db().index);
  const chunkKeys = (await keys<[string, number]>(db().chunks)).filter((key) => key[0] === url);
  await delMany(chunkKeys, db().chunks);
  await del(['partial', url], db().index);
}

export const readRecord = (id: string) => get<ModelRecord>(['model', id], db().index);
export const deleteRecord = (id: string) => del(['model', id], db().index);

/** Adds files to a model's record and marks it used now. */
export const touchRecord = (id: string, files: Record<string, string>, at = Date.now()) =>
  update<ModelRecord>(['model', id], (old) => ({ id, files: { ...old?.files, ...files }, lastUsed: at }), db().index);

export async function allRecords(): Promise<ModelRecord[]> {
  const ids = (await keys<IndexKey>(db().index)).filter((key) => key[0] === 'model').map((key) => key[1]);
  const records = await getMany<ModelRecord>(
    ids.map((id) => ['model', id]),
    db().index,
  );
  return records.filter((record): record is ModelRecord => record !== undefined);
}

/** URLs of every file with a manifest or a partial download. */
export async function allFileUrls(): Promise<string[]> {
  const urls = (await keys<IndexKey>(db().index))
    .filter((key) => key[0] === 'manifest' || key[0] === 'partial')
    .map((key) => key[1]);
  return [...new Set(urls)];
}

export async function clearAll(): Promise<void> {
  await clear(db().index);
  await clear(db().chunks);
}

/** Cached bytes and state of one file: complete chunks of a partial download count. */
export async function fileBytes(url: string): Promise<{ state: FileState; bytes: number; size: number | undefined }> {
  const manifest = await readManifest(url);
  if (manifest) return { state: 'cached', bytes: manifest.size, size: manifest.size };
  const partial = await readPartial(url);
  if (partial) return { state: 'partial', bytes: partial.chunks * partial.chunkSize, size: partial.size };
  return { state: 'absent', bytes: 0, size: undefined };
}

/** Every model with at least one complete file, with its complete bytes and last use. */
export async function cachedModels(): Promise<CachedModel[]> {
  const models: CachedModel[] = [];
  for (const record of await allRecords()) {
    const files: string[] = [];
    let bytes = 0;
    for (const [file, url] of Object.entries(record.files)) {
      const manifest = await readManifest(url);
      if (!manifest) continue;
      files.push(file);
      bytes += manifest.size;
    }
    if (files.length) models.push({ id: record.id, bytes, lastUsed: record.lastUsed, files });
  }
  return models;
}

/** Bytes held by every file the cache knows, complete or partial, each counted once. */
export async function usedBytes(urls: string[]): Promise<number> {
  let total = 0;
  for (const url of urls) total += (await fileBytes(url)).bytes;
  return total;
}

/** Models other than `keep` that could be deleted, least recently used first. */
export async function candidates(keep: string | undefined): Promise<Candidate[]> {
  return (await cachedModels())
    .filter((model) => model.id !== keep)
    .map(({ id, bytes, lastUsed }) => ({ id, bytes, lastUsed }));
}

/** Deletes a model's record and every file of it that no other model uses. */
export async function deleteModel(id: string): Promise<boolean> {
  const record = await readRecord(id);
  if (!record) return false;
  await deleteRecord(id);
  const stillUsed = new Set((await allRecords()).flatMap((other) => Object.values(other.files)));
  for (const url of Object.values(record.files)) if (!stillUsed.has(url)) await deleteFile(url);
  return true;
}

/** The files recorded under a model whose URLs lie under `base`, with their cache state (no network). */
export async function recordedFiles(
  model: string,
  base: string,
): Promise<{ file: string; state: FileState; bytes: number; size: number | undefined }[]> {
  if (!(await storageAvailable())) return [];
  const files = Object.entries((await readRecord(model))?.files ?? {}).filter(([, url]) => url.startsWith(base));
  return Promise.all(files.map(async ([file, url]) => ({ file, ...(await fileBytes(url)) })));
}
