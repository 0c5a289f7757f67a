/**
 * The weight store's front door: the only path other modules import.
 *
 * types.ts   file specs, manifests, progress values, FileLoader
 * loader.ts  FileLoaders: the store's (cache or download), a folder's vaani-manifest.json, plain fetch
 * files.ts   one file cached or downloaded under the origin-wide lock; a cached file read back
 * download.ts the network: resumable chunked download into IndexedDB, or an uncached fetch
 * checks.ts  the one checked body read (start, size, early end) both use, and the SHA-256 check
 * pins.ts    the hub's headers (X-Repo-Commit, X-Linked-*), what a file must be, trust-on-first-use
 * idb.ts     IndexedDB: chunks, manifests, partial downloads, model records and what they hold
 * space.ts   quota, budget and least-recently-used eviction
 * progress.ts transfer progress, its throttled broadcast to every tab, file locks
 * models.ts  `ai.models`: load, status, cached, delete, clear, events
 * errors.ts  StoreError and its codes
 */
export { checkStart, HEAD_BYTES, parseContentRange } from './checks';
export { formatBytes, isStoreFull, StoreError } from './errors';
export {
  fetchFolderManifest,
  fetchLoader,
  FOLDER_MANIFEST,
  folderLoader,
  isFolderBase,
  parseFolderManifest,
  pullCommand,
  storeLoader,
  type FolderManifest,
  type StoreLoaderOptions,
} from './loader';
export { recordedFiles } from './idb';
export { askPersist, persistState } from './persist';
export { hubHeaders, isCommit, type HubHeaders } from './pins';
export { ModelStore, type ImportedFile, type ModelLoadOptions, type ModelResolver, type Models } from './models';
export { RateMeter } from './progress';
export type * from './types';
