import { allRecords, deleteFile, deleteRecord, readManifest, readPartial, readRecord } from './idb';
import type { Candidate } from './eviction';
import type { CachedModel, FileState } from './types';

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
