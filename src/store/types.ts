/** One file a model needs. `size` and `sha256` are checked when given. */
export interface FileSpec {
  name: string;
  size?: number;
  /** Lower-case hex SHA-256 of the whole file. */
  sha256?: string;
  /** A file the model works without (e.g. generation_config.json); a 404 is not an error. */
  optional?: boolean;
}

/** Where a model's files are and which files it needs. */
export interface ModelFiles {
  base: string;
  files: FileSpec[];
}

/** How the weight store behaves; every field has a default. */
export interface StoreOptions {
  /** Bytes per IndexedDB value. Default 32 MiB. */
  chunkSize?: number;
  /** Files downloaded at once by `models.load`. Default 3. */
  concurrency?: number;
  /** Most bytes the cache may hold; least recently used models are evicted past it. Default: no budget. */
  budget?: number;
  /** Times a broken connection is resumed within one load. Default 2. */
  retries?: number;
  /** A download that brings no byte for this long is broken off (then resumed if retries are left). Default 30 000 ms. */
  stallMs?: number;
}

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
  cachedAt: number;
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

export interface Progress {
  file: string;
  loaded: number;
  total: number | undefined;
}

export interface LoadOptions {
  signal?: AbortSignal;
  onProgress?(progress: Progress): void;
}

/** Where an engine gets a model's files from; runs inside the engine's worker. */
export interface FileLoader {
  /** The file's bytes; rejects naming the file and URL when it cannot be had. */
  load(file: string, options?: LoadOptions): Promise<Uint8Array>;
  /** Whether the source has the file (for optional files such as generation_config.json). */
  has(file: string, options?: LoadOptions): Promise<boolean>;
}
