import type { EmbeddingSettings } from './options';
import type { ModelJob } from './jobs';
/** The data types shared by the routes (files, vector stores, search) and the data engine: OpenAI's shapes. */
import type { Filter, ListParams, Metadata, Page, VectorOrigin } from './collections';

export type FilePurpose = 'assistants' | 'user_data' | 'batch' | 'fine-tune' | 'vision' | 'evals';

/** OpenAI's file object. */
export interface FileObject {
  id: string;
  object: 'file';
  bytes: number;
  created_at: number;
  filename: string;
  purpose: FilePurpose;
  status: 'processed';
  expires_at: number | null;
  status_details: null;
}

/** A file as IndexedDB keeps it: the object and the media type it came with (bytes are kept apart). */
export interface StoredFile extends FileObject {
  type: string;
}

export interface FileCounts {
  in_progress: number;
  completed: number;
  failed: number;
  cancelled: number;
  total: number;
}

/** OpenAI's vector store object. */
export interface VectorStore {
  id: string;
  object: 'vector_store';
  created_at: number;
  name: string;
  usage_bytes: number;
  file_counts: FileCounts;
  status: 'expired' | 'in_progress' | 'completed';
  expires_after: { anchor: 'last_active_at'; days: number } | null;
  expires_at: number | null;
  last_active_at: number;
  metadata: Record<string, string>;
}

export type StoredVectorStore = Omit<VectorStore, 'usage_bytes' | 'file_counts' | 'status'> & {
  /** The model the store's vectors came from (absent while it holds none). */
  origin?: VectorOrigin;
  /** Bumped by every write that changes the store's chunks: a tab's index of it is current at this number. */
  version?: number;
};

/** OpenAI's static chunking strategy. */
export interface StaticChunking {
  max_chunk_size_tokens: number;
  chunk_overlap_tokens: number;
}

export type ChunkingStrategy = { type: 'static'; static: StaticChunking } | { type: 'other' };

export type EntryStatus = 'in_progress' | 'completed' | 'failed' | 'cancelled';

export interface LastError {
  code: 'server_error' | 'unsupported_file' | 'invalid_file';
  message: string;
}

/** OpenAI's vector store file object. */
export interface VectorStoreFile {
  id: string;
  object: 'vector_store.file';
  usage_bytes: number;
  created_at: number;
  vector_store_id: string;
  status: EntryStatus;
  last_error: LastError | null;
  chunking_strategy: ChunkingStrategy;
  attributes: Metadata;
}

/** A store file as IndexedDB keeps it: keyed `store/file`, with the batch that added it. */
export interface StoredEntry extends VectorStoreFile {
  key: string;
  batch_id?: string;
  /** The static strategy asked for; absent means auto (resolved against the model's window). */
  requested?: StaticChunking;
}

export interface FileBatch {
  id: string;
  object: 'vector_store.files_batch';
  created_at: number;
  vector_store_id: string;
  status: EntryStatus;
  file_counts: FileCounts;
}

export type StoredBatch = Omit<FileBatch, 'status' | 'file_counts'> & { cancelled: boolean };

/** A chunk as IndexedDB keeps it; `text` is what search returns, `indexed` what was embedded and keyword-indexed. */
export interface StoredChunk {
  id: string;
  store_id: string;
  file_id: string;
  index: number;
  text: string;
  headings: string[];
  pages?: [number, number];
  /** The file's attributes with the record's fields (CSV rows, JSON objects) beside them. */
  metadata: Metadata;
  vector: Float32Array;
  /**
   * Its keyword words (`words` of headings and text, joined by spaces), cut once at ingest so that
   * loading a store's index does not segment every chunk again; absent in rows of older builds.
   */
  words?: string;
}

/** A chunk ready to embed (from the data worker's parser and chunker). */
export interface PreparedChunk {
  index: number;
  text: string;
  /** Headings and text: what is embedded and keyword-indexed. */
  indexed: string;
  headings: string[];
  pages?: [number, number];
  fields?: Metadata;
  /** Tokens of the text as the chunker counted them (sizes the encoder calls while ingesting). */
  tokens?: number;
}

export interface ChunkSearch {
  text: string;
  vector?: Float32Array;
  mode: 'hybrid' | 'semantic';
  filters?: Filter;
  limit: number;
  minScore?: number;
}

/** OpenAI's search result, and where the chunk sits (Vaani's additions, used by citations). */
export interface SearchResult {
  file_id: string;
  filename: string;
  score: number;
  attributes: Metadata;
  content: { type: 'text'; text: string }[];
  chunk: { id: string; index: number; headings: string[]; pages?: [number, number] };
}

/** OpenAI's `file_citation` annotation, with the passage number the answer used and the chunk it quotes. */
export interface FileCitation {
  type: 'file_citation';
  /** Where the marker starts in the answer's text. */
  index: number;
  file_id: string;
  filename: string;
  /** The passage's number in the prompt, as written in the answer (`[2]`). */
  passage: number;
  quote: string;
  pages?: [number, number];
}

/** The data engine: files, vector stores and chunks in IndexedDB, parsing and search in a worker. */
export interface DataEngine {
  putFile(file: Omit<StoredFile, 'id' | 'created_at'>, bytes: Uint8Array): Promise<FileObject>;
  listFiles(params: ListParams & { purpose?: string }): Promise<Page<FileObject>>;
  getFile(id: string): Promise<FileObject>;
  fileContent(id: string): Promise<{ file: StoredFile; bytes: Uint8Array }>;
  deleteFile(id: string): Promise<void>;

  createStore(params: {
    name: string;
    metadata: Record<string, string>;
    expires_after: VectorStore['expires_after'];
  }): Promise<VectorStore>;
  listStores(params: ListParams): Promise<Page<VectorStore>>;
  getStore(id: string): Promise<VectorStore>;
  updateStore(
    id: string,
    patch: { name?: string; metadata?: Record<string, string>; expires_after?: VectorStore['expires_after'] },
  ): Promise<VectorStore>;
  deleteStore(id: string): Promise<void>;

  /** Adds files (ingested in the background) under one batch id when `batch` is set. */
  addFiles(
    storeId: string,
    files: { file_id: string; attributes: Metadata; chunking?: StaticChunking }[],
    batch: boolean,
  ): Promise<{ entries: VectorStoreFile[]; batch?: FileBatch }>;
  listEntries(
    storeId: string,
    params: ListParams & { filter?: EntryStatus; batch_id?: string },
  ): Promise<Page<VectorStoreFile>>;
  getEntry(storeId: string, fileId: string): Promise<VectorStoreFile>;
  updateEntry(storeId: string, fileId: string, attributes: Metadata): Promise<VectorStoreFile>;
  deleteEntry(storeId: string, fileId: string): Promise<void>;
  entryContent(storeId: string, fileId: string): Promise<{ type: 'text'; text: string }[]>;
  getBatch(storeId: string, batchId: string): Promise<FileBatch>;
  cancelBatch(storeId: string, batchId: string): Promise<FileBatch>;

  /** Hybrid search over the stores' chunks (the engine embeds the query). */
  search(storeIds: string[], query: Omit<ChunkSearch, 'vector'>): Promise<SearchResult[]>;
}

export interface TokenizerJob extends ModelJob {
  settings?: EmbeddingSettings;
}

/** A store file's chunks as the data worker cut them, and the static strategy it used. */
export interface PreparedFile {
  chunks: PreparedChunk[];
  strategy: StaticChunking;
}

type StoreFields = Pick<VectorStore, 'name' | 'metadata' | 'expires_after'>;

/** The data worker's API (src/worker/data/data.worker.ts satisfies it): each call names its IndexedDB database. */
export interface DataWorker {
  putFile(db: string, file: Omit<StoredFile, 'id' | 'created_at'>, bytes: Uint8Array): Promise<FileObject>;
  listFiles(db: string, params: ListParams & { purpose?: string }): Promise<Page<FileObject>>;
  getFile(db: string, id: string): Promise<FileObject>;
  fileContent(db: string, id: string): Promise<{ file: StoredFile; bytes: Uint8Array }>;
  deleteFile(db: string, id: string): Promise<void>;
  createStore(db: string, params: StoreFields): Promise<VectorStore>;
  listStores(db: string, params: ListParams): Promise<Page<VectorStore>>;
  getStore(db: string, id: string): Promise<VectorStore>;
  updateStore(db: string, id: string, patch: Partial<StoreFields>): Promise<VectorStore>;
  deleteStore(db: string, id: string): Promise<void>;
  addFiles(
    db: string,
    storeId: string,
    files: { file_id: string; attributes: Metadata; chunking?: StaticChunking }[],
    batch: boolean,
  ): Promise<{ entries: VectorStoreFile[]; batch?: FileBatch }>;
  listEntries(
    db: string,
    storeId: string,
    params: ListParams & { filter?: EntryStatus; batch_id?: string },
  ): Promise<Page<VectorStoreFile>>;
  getEntry(db: string, storeId: string, fileId: string): Promise<VectorStoreFile>;
  updateEntry(db: string, storeId: string, fileId: string, attributes: Metadata): Promise<VectorStoreFile>;
  deleteEntry(db: string, storeId: string, fileId: string): Promise<void>;
  entryContent(db: string, storeId: string, fileId: string): Promise<{ type: 'text'; text: string }[]>;
  getBatch(db: string, storeId: string, batchId: string): Promise<FileBatch>;
  cancelBatch(db: string, storeId: string, batchId: string): Promise<FileBatch>;
  /** Store files a reload left `in_progress`. */
  pending(db: string): Promise<{ storeId: string; fileId: string }[]>;
  /** Parses and chunks a store file in the worker; undefined when it failed (the entry says why) or is gone. */
  prepare(db: string, storeId: string, fileId: string, job: TokenizerJob): Promise<PreparedFile | undefined>;
  /** Stores the embedded chunks and ends the file `completed` (unless it was cancelled or removed meanwhile). */
  complete(
    db: string,
    storeId: string,
    fileId: string,
    chunks: (PreparedChunk & { vector: Float32Array })[],
    strategy: StaticChunking,
    origin: VectorOrigin,
    keepBytes: boolean,
  ): Promise<void>;
  fail(db: string, storeId: string, fileId: string, error: LastError): Promise<void>;
  /** Checks the stores exist (404 if not) and starts loading the indexes not yet resident, without waiting. */
  ready(db: string, storeIds: string[]): Promise<void>;
  search(db: string, storeIds: string[], query: ChunkSearch): Promise<SearchResult[]>;
}
