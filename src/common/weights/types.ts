export type { FileLoader, FileSpec, LoadOptions, ModelFiles, Progress } from '../../protocol/weights';
export type { StoreOptions } from '../../protocol/options';

/** Progress of one file or of a whole model. Rate in bytes per second, ETA in seconds. */
export interface TransferProgress {
  loaded: number;
  total: number | undefined;
  /** loaded / total, when the total is known. */
  fraction: number | undefined;
  rate: number;
  eta: number | undefined;
}

export interface FileProgress extends TransferProgress {
  file: string;
  url: string;
  /** The model this file was loaded for, when known. */
  model?: string;
}

export interface ModelProgress extends TransferProgress {
  model: string;
  files: FileProgress[];
}

/** The record of a complete file in the cache, written after its last chunk. */
export interface Manifest {
  url: string;
  size: number;
  chunkSize: number;
  chunks: number;
  sha256?: string;
  etag?: string;
  /** The hub commit it came from (X-Repo-Commit), when the server said. */
  commit?: string;
  cachedAt: number;
}

/**
 * What a URL's first complete download was (trust-on-first-use): a later download of the same URL
 * must match it. Kept when the file is deleted or evicted; `ai.models.clear()` forgets it.
 */
export interface Pin {
  url: string;
  size: number;
  sha256: string;
  commit?: string;
  pinnedAt: number;
}

/** A download cut short: chunks [0, chunks) are stored and complete. */
export interface Partial {
  url: string;
  chunkSize: number;
  chunks: number;
  size?: number;
  etag?: string;
}

/** What the cache knows of one model. */
export interface ModelRecord {
  id: string;
  /** File name → URL. */
  files: Record<string, string>;
  lastUsed: number;
}

export interface CachedModel {
  id: string;
  bytes: number;
  lastUsed: number;
  files: string[];
}

export type FileState = 'cached' | 'partial' | 'downloading' | 'absent';

export interface ModelStatus {
  id: string;
  state: FileState;
  /** Bytes cached, complete chunks of partial files included. */
  bytes: number;
  /** Bytes of the whole model, when known. */
  total: number | undefined;
  lastUsed: number | undefined;
  files: { file: string; state: FileState; bytes: number; size: number | undefined }[];
}
