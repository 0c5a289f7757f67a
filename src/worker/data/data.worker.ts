import type {
  ChunkSearch,
  DataWorker,
  EntryStatus,
  LastError,
  StaticChunking,
  StoredFile,
  TokenizerJob,
  VectorStore,
} from '../../protocol/data';
import type { ChunkTokenizer } from './ingest';
import { DataStore } from './collection';
import { loadEncoderTokenizer } from '../embeddings/load';
import type { ListParams, Metadata } from '../../protocol/collections';
import type { Served } from '../../protocol/worker';
import { exposeEngine } from '../host/expose';
import { modelSlot } from '../host/model-slot';
import { opener } from '../collections/open';

/** The embedding model's tokenizer (no graph): chunks are cut in its tokens, within its window. */
const tokenizer = modelSlot<ChunkTokenizer, TokenizerJob>('embedding tokenizer', async (loader, request) => {
  const { config, tokenizer } = await loadEncoderTokenizer(loader, request.settings);
  const window = config.maxLength - tokenizer.encode(config.prefixes.passage).ids.length;
  return { count: (text) => tokenizer.count(text), window };
});

const answer = opener((name) => DataStore.open(name), 'data store');

type Files = { file_id: string; attributes: Metadata; chunking?: StaticChunking }[];
type StorePatch = Partial<Pick<VectorStore, 'name' | 'metadata' | 'expires_after'>>;

const api = {
  putFile: (_signal: AbortSignal, db: string, file: Omit<StoredFile, 'id' | 'created_at'>, bytes: Uint8Array) =>
    answer(db, (s) => s.putFile(file, bytes)),
  listFiles: (_signal: AbortSignal, db: string, params: ListParams & { purpose?: string }) =>
    answer(db, (s) => s.listFiles(params)),
  getFile: (_signal: AbortSignal, db: string, id: string) => answer(db, (s) => s.getFile(id)),
  fileContent: (_signal: AbortSignal, db: string, id: string) => answer(db, (s) => s.fileContent(id)),
  deleteFile: (_signal: AbortSignal, db: string, id: string) => answer(db, (s) => s.deleteFile(id)),
  createStore: (_signal: AbortSignal, db: string, params: Pick<VectorStore, 'name' | 'metadata' | 'expires_after'>) =>
    answer(db, (s) => s.createStore(params)),
  listStores: (_signal: AbortSignal, db: string, params: ListParams) => answer(db, (s) => s.listStores(params)),
  getStore: (_signal: AbortSignal, db: string, id: string) => answer(db, (s) => s.getStore(id)),
  updateStore: (_signal: AbortSignal, db: string, id: string, patch: StorePatch) =>
    answer(db, (s) => s.updateStore(id, patch)),
  deleteStore: (_signal: AbortSignal, db: string, id: string) => answer(db, (s) => s.deleteStore(id)),
  addFiles: (_signal: AbortSignal, db: string, storeId: string, files: Files, batch: boolean) =>
    answer(db, (s) => s.addFiles(storeId, files, batch)),
  listEntries: (
    _signal: AbortSignal,
    db: string,
    storeId: string,
    params: ListParams & { filter?: EntryStatus; batch_id?: string },
  ) => answer(db, (s) => s.listEntries(storeId, params)),
  getEntry: (_signal: AbortSignal, db: string, storeId: string, fileId: string) =>
    answer(db, (s) => s.getEntry(storeId, fileId)),
  updateEntry: (_signal: AbortSignal, db: string, storeId: string, fileId: string, attributes: Metadata) =>
    answer(db, (s) => s.updateEntry(storeId, fileId, attributes)),
  deleteEntry: (_signal: AbortSignal, db: string, storeId: string, fileId: string) =>
    answer(db, (s) => s.deleteEntry(storeId, fileId)),
  entryContent: (_signal: AbortSignal, db: string, storeId: string, fileId: string) =>
    answer(db, (s) => s.entryContent(storeId, fileId)),
  getBatch: (_signal: AbortSignal, db: string, storeId: string, batchId: string) =>
    answer(db, (s) => s.getBatch(storeId, batchId)),
  cancelBatch: (_signal: AbortSignal, db: string, storeId: string, batchId: string) =>
    answer(db, (s) => s.cancelBatch(storeId, batchId)),
  pending: (_signal: AbortSignal, db: string) => answer(db, (s) => s.pending()),
  /** Parses and chunks a store file here, in the worker (pdf.js included); a tokenizer that fails to load fails the file. */
  prepare: (_signal: AbortSignal, db: string, storeId: string, fileId: string, job: TokenizerJob) =>
    answer(db, async (s) => {
      let counter: ChunkTokenizer;
      try {
        counter = await tokenizer(job);
      } catch (error) {
        await s.fail(storeId, fileId, { code: 'server_error', message: (error as Error).message });
        return undefined;
      }
      return s.prepare(storeId, fileId, counter);
    }),
  complete: (_signal: AbortSignal, db: string, ...args: Parameters<DataStore['complete']>) =>
    answer(db, (s) => s.complete(...args)),
  fail: (_signal: AbortSignal, db: string, storeId: string, fileId: string, error: LastError) =>
    answer(db, (s) => s.fail(storeId, fileId, error)),
  ready: (_signal: AbortSignal, db: string, storeIds: string[]) => answer(db, (s) => s.ready(storeIds)),
  search: (_signal: AbortSignal, db: string, storeIds: string[], query: ChunkSearch) =>
    answer(db, (s) => s.search(storeIds, query)),
} satisfies Served<DataWorker>;

exposeEngine(api);
