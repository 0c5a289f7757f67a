import { EngineError } from '../../protocol/errors';
import type {
  ChunkSearch,
  EntryStatus,
  FileBatch,
  FileCounts,
  FileObject,
  LastError,
  PreparedChunk,
  SearchResult,
  StaticChunking,
  StoredBatch,
  StoredChunk,
  StoredEntry,
  StoredFile,
  StoredVectorStore,
  VectorStore,
  VectorStoreFile,
} from '../../protocol/data';
import type { ListParams, Metadata, Page, VectorOrigin } from '../../protocol/collections';
import { words, type Indexed, type RetrievalIndex } from '../../common/retrieval/index';
import { requestDone as done } from '../collections/idb';
import { DEFAULT_DATABASES } from '../../protocol/options';
import { DataDb, type StoreName } from './db';
import { indexedText, lastErrorOf, prepareChunks, type ChunkTokenizer } from './ingest';
import { sortableId, unixSeconds } from '../../common/ids';
import { pageOf } from '../../common/paging';
import { Resync } from '../collections/resync';
import { Resident } from '../collections/resident';

const notFound = (what: string, id: string, param: string) =>
  new EngineError('not_found', `No ${what} has the id '${id}'.`, `${what.replace(/ /g, '_')}_not_found`, param);

const keyOf = (storeId: string, fileId: string) => `${storeId}/${fileId}`;

const publicFile = ({ type: _type, ...file }: StoredFile): FileObject => file;

function publicEntry({ key: _key, batch_id: _batch, requested: _requested, ...entry }: StoredEntry): VectorStoreFile {
  return entry;
}

function countsOf(entries: StoredEntry[]): FileCounts {
  const counts: FileCounts = { in_progress: 0, completed: 0, failed: 0, cancelled: 0, total: entries.length };
  for (const entry of entries) counts[entry.status]++;
  return counts;
}

type IndexedChunk = Indexed & { chunk: StoredChunk };

/** A write's move of a vector store's chunk version: from, to. */
type Bump = [number, number];

/** Bumps a vector store's version (and `last_active_at`) inside a write; undefined if the store is gone. */
async function bump(stores: IDBObjectStore, storeId: string): Promise<Bump | undefined> {
  const row = (await done(stores.get(storeId))) as StoredVectorStore | undefined;
  if (!row) return undefined;
  const from = row.version ?? 0;
  stores.put({ ...row, last_active_at: unixSeconds(), version: from + 1 });
  return [from, from + 1];
}

/** What a tab tells the others after it changed a vector store's chunks. */
interface Change {
  store: string;
}

/**
 * The data store of one worker: IndexedDB is the truth; each vector store searched is loaded once
 * into an in-memory RetrievalIndex kept in step with this worker's writes. Other tabs' writes reach
 * it through a BroadcastChannel: a changed store's copy is dropped and loaded again when searched.
 * A copy also loads again when the store's version moved past it (a write never announced).
 */
export class DataStore {
  private readonly resident = new Resident<IndexedChunk>();
  /** The store version each held index is current at. */
  private readonly versions = new Map<string, number>();
  /** File names by id for search results (a file's name never changes; deleting it forgets it). */
  private readonly filenames = new Map<string, string>();
  /** Indexes being loaded, with the store version asked for: searches at that version share one load. */
  private readonly loading = new Map<string, { version: number; index: Promise<RetrievalIndex<IndexedChunk>> }>();

  private readonly resync: Resync<Change>;

  private constructor(
    private readonly db: DataDb,
    name: string,
  ) {
    this.resync = new Resync<Change>(name, (message) => this.resident.drop(message.store));
  }

  static async open(name: string = DEFAULT_DATABASES.data): Promise<DataStore> {
    return new DataStore(await DataDb.open(name), name);
  }

  private announce(storeId: string): void {
    this.resync.announce({ store: storeId });
  }

  private get<T>(name: StoreName, key: string): Promise<T | undefined> {
    return this.db.read([name], (store) => done(store(name).get(key) as IDBRequest<T | undefined>));
  }

  private async all<T>(name: StoreName, index?: string, key?: string): Promise<T[]> {
    return this.db.read([name], (store) => {
      const source = index ? store(name).index(index) : store(name);
      return done(source.getAll(key) as IDBRequest<T[]>);
    });
  }

  // Files

  async putFile(file: Omit<StoredFile, 'id' | 'created_at'>, bytes: Uint8Array): Promise<FileObject> {
    const row: StoredFile = { ...file, id: sortableId('file-', 12), created_at: unixSeconds() };
    await this.db.write(['files', 'blobs'], async (store) => {
      store('files').put(row);
      store('blobs').put(bytes, row.id);
    });
    return publicFile(row);
  }

  async listFiles(params: ListParams & { purpose?: string }): Promise<Page<FileObject>> {
    const files = await this.all<StoredFile>('files');
    const page = pageOf(
      files.filter((file) => !params.purpose || file.purpose === params.purpose),
      params,
    );
    return { data: page.data.map(publicFile), has_more: page.has_more };
  }

  private async file(id: string): Promise<StoredFile> {
    const file = await this.get<StoredFile>('files', id);
    if (!file) throw notFound('file', id, 'file_id');
    return file;
  }

  getFile = async (id: string): Promise<FileObject> => publicFile(await this.file(id));

  async fileContent(id: string): Promise<{ file: StoredFile; bytes: Uint8Array }> {
    const file = await this.file(id);
    const bytes = await this.get<Uint8Array>('blobs', id);
    if (!bytes)
      throw new EngineError(
        'not_found',
        `The bytes of file '${id}' were not kept (createVaani({ data: { keepFiles: false } })): only its chunks are. Upload it again to add it to another store.`,
        'file_content_not_kept',
        'file_id',
      );
    return { file, bytes };
  }

  /** Deletes the file, its bytes, and it from every vector store (entries and chunks). */
  async deleteFile(id: string): Promise<void> {
    await this.file(id);
    this.filenames.delete(id);
    const stores = await this.db.write(['files', 'blobs', 'entries', 'chunks', 'stores'], async (store) => {
      const entries = (await done(store('entries').getAll())) as StoredEntry[];
      const mine = entries.filter((entry) => entry.id === id);
      const chunks = (await done(store('chunks').index('file').getAllKeys(id))) as string[];
      store('files').delete(id);
      store('blobs').delete(id);
      for (const entry of mine) store('entries').delete(entry.key);
      for (const key of chunks) store('chunks').delete(key);
      const moved: [string, Bump | undefined][] = [];
      for (const entry of mine) moved.push([entry.vector_store_id, await bump(store('stores'), entry.vector_store_id)]);
      return moved;
    });
    for (const [storeId, moved] of stores) this.dropFromIndex(storeId, id, moved);
  }

  // Vector stores

  private async publicStore(row: StoredVectorStore): Promise<VectorStore> {
    const { origin: _origin, version: _version, ...rest } = row;
    const entries = await this.all<StoredEntry>('entries', 'store', row.id);
    const file_counts = countsOf(entries);
    return {
      ...rest,
      usage_bytes: entries.reduce((sum, entry) => sum + entry.usage_bytes, 0),
      file_counts,
      status:
        row.expires_at !== null && row.expires_at < unixSeconds()
          ? 'expired'
          : file_counts.in_progress
            ? 'in_progress'
            : 'completed',
    };
  }

  private async vectorStore(id: string): Promise<StoredVectorStore> {
    const row = await this.get<StoredVectorStore>('stores', id);
    if (!row) throw notFound('vector store', id, 'vector_store_id');
    return row;
  }

  async createStore(params: Pick<VectorStore, 'name' | 'metadata' | 'expires_after'>): Promise<VectorStore> {
    const time = unixSeconds();
    const row: StoredVectorStore = {
      id: sortableId('vs_', 12),
      object: 'vector_store',
      created_at: time,
      last_active_at: time,
      expires_at: params.expires_after ? time + params.expires_after.days * 86400 : null,
      ...params,
    };
    await this.db.write(['stores'], async (store) => void store('stores').put(row));
    return this.publicStore(row);
  }

  async listStores(params: ListParams): Promise<Page<VectorStore>> {
    const page = pageOf(await this.all<StoredVectorStore>('stores'), params);
    return { data: await Promise.all(page.data.map((row) => this.publicStore(row))), has_more: page.has_more };
  }

  getStore = async (id: string): Promise<VectorStore> => this.publicStore(await this.vectorStore(id));

  async updateStore(id: string, patch: Partial<Pick<VectorStore, 'name' | 'metadata' | 'expires_after'>>) {
    const row = await this.db.write(['stores'], async (store) => {
      const current = (await done(store('stores').get(id))) as StoredVectorStore | undefined;
      if (!current) throw notFound('vector store', id, 'vector_store_id');
      const next = { ...current, ...patch, last_active_at: unixSeconds() };
      if (patch.expires_after !== undefined)
        next.expires_at = patch.expires_after ? next.last_active_at + patch.expires_after.days * 86400 : null;
      store('stores').put(next);
      return next;
    });
    return this.publicStore(row);
  }

  /** Deletes the store with its entries, batches and chunks (the files stay, as in OpenAI). */
  async deleteStore(id: string): Promise<void> {
    await this.vectorStore(id);
    await this.db.write(['stores', 'entries', 'batches', 'chunks'], async (store) => {
      const entries = (await done(store('entries').index('store').getAllKeys(id))) as string[];
      const chunks = (await done(store('chunks').index('store').getAllKeys(id))) as string[];
      const batches = ((await done(store('batches').getAll())) as StoredBatch[]).filter(
        (batch) => batch.vector_store_id === id,
      );
      store('stores').delete(id);
      for (const key of entries) store('entries').delete(key);
      for (const key of chunks) store('chunks').delete(key);
      for (const batch of batches) store('batches').delete(batch.id);
    });
    this.resident.drop(id);
    this.versions.delete(id);
    this.announce(id);
  }

  // Store files and batches

  /** Adds files to a store as `in_progress` entries (a file already there is ingested again). */
  async addFiles(
    storeId: string,
    files: { file_id: string; attributes: Metadata; chunking?: StaticChunking }[],
    batch: boolean,
  ): Promise<{ entries: VectorStoreFile[]; batch?: FileBatch }> {
    await this.vectorStore(storeId);
    for (const file of files) await this.file(file.file_id);
    const time = unixSeconds();
    const batchRow: StoredBatch | undefined = batch
      ? {
          id: sortableId('vsfb_', 12),
          object: 'vector_store.files_batch',
          created_at: time,
          vector_store_id: storeId,
          cancelled: false,
        }
      : undefined;
    const entries = files.map((file): StoredEntry => ({
      key: keyOf(storeId, file.file_id),
      id: file.file_id,
      object: 'vector_store.file',
      usage_bytes: 0,
      created_at: time,
      vector_store_id: storeId,
      status: 'in_progress',
      last_error: null,
      chunking_strategy: file.chunking ? { type: 'static', static: file.chunking } : { type: 'other' },
      attributes: file.attributes,
      ...(file.chunking ? { requested: file.chunking } : {}),
      ...(batchRow ? { batch_id: batchRow.id } : {}),
    }));
    const moved = await this.db.write(['entries', 'batches', 'chunks', 'stores'], async (store) => {
      for (const entry of entries) {
        const old = (await done(store('chunks').index('file').getAll(entry.id))) as StoredChunk[];
        for (const chunk of old.filter((chunk) => chunk.store_id === storeId)) store('chunks').delete(chunk.id);
        store('entries').put(entry);
      }
      if (batchRow) store('batches').put(batchRow);
      return bump(store('stores'), storeId);
    });
    const current = this.follows(storeId, moved);
    for (const entry of entries) if (current) this.dropFromIndex(storeId, entry.id);
    this.announce(storeId);
    return {
      entries: entries.map(publicEntry),
      batch: batchRow && this.publicBatch(batchRow, entries),
    };
  }

  private publicBatch({ cancelled, ...batch }: StoredBatch, entries: StoredEntry[]): FileBatch {
    const file_counts = countsOf(entries);
    const status: EntryStatus = file_counts.in_progress ? 'in_progress' : cancelled ? 'cancelled' : 'completed';
    return { ...batch, status, file_counts };
  }

  async listEntries(
    storeId: string,
    params: ListParams & { filter?: EntryStatus; batch_id?: string },
  ): Promise<Page<VectorStoreFile>> {
    await this.vectorStore(storeId);
    const entries = (await this.all<StoredEntry>('entries', 'store', storeId)).filter(
      (entry) =>
        (!params.filter || entry.status === params.filter) && (!params.batch_id || entry.batch_id === params.batch_id),
    );
    const page = pageOf(entries, params);
    return { data: page.data.map(publicEntry), has_more: page.has_more };
  }

  private async entry(storeId: string, fileId: string): Promise<StoredEntry> {
    await this.vectorStore(storeId);
    const entry = await this.get<StoredEntry>('entries', keyOf(storeId, fileId));
    if (!entry) throw notFound('vector store file', fileId, 'file_id');
    return entry;
  }

  getEntry = async (storeId: string, fileId: string) => publicEntry(await this.entry(storeId, fileId));

  /** New attributes for a store file, on its chunks too (record fields stay beside them). */
  async updateEntry(storeId: string, fileId: string, attributes: Metadata): Promise<VectorStoreFile> {
    const before = await this.entry(storeId, fileId);
    const next = { ...before, attributes };
    await this.db.write(['entries', 'chunks', 'stores'], async (store) => {
      const chunks = (await done(store('chunks').index('file').getAll(fileId))) as StoredChunk[];
      await bump(store('stores'), storeId);
      for (const chunk of chunks.filter((chunk) => chunk.store_id === storeId)) {
        const fields = Object.fromEntries(
          Object.entries(chunk.metadata).filter(([key]) => !(key in before.attributes)),
        );
        store('chunks').put({ ...chunk, metadata: { ...fields, ...attributes } });
      }
      store('entries').put(next);
    });
    this.resident.drop(storeId);
    this.announce(storeId);
    return publicEntry(next);
  }

  async deleteEntry(storeId: string, fileId: string): Promise<void> {
    const entry = await this.entry(storeId, fileId);
    const moved = await this.db.write(['entries', 'chunks', 'stores'], async (store) => {
      const chunks = (await done(store('chunks').index('file').getAll(fileId))) as StoredChunk[];
      for (const chunk of chunks.filter((chunk) => chunk.store_id === storeId)) store('chunks').delete(chunk.id);
      store('entries').delete(entry.key);
      return bump(store('stores'), storeId);
    });
    this.dropFromIndex(storeId, fileId, moved);
  }

  /** The chunks of a store file, in order (GET /vector_stores/{id}/files/{file_id}/content). */
  async entryContent(storeId: string, fileId: string): Promise<{ type: 'text'; text: string }[]> {
    await this.entry(storeId, fileId);
    const chunks = (await this.all<StoredChunk>('chunks', 'file', fileId)).filter(
      (chunk) => chunk.store_id === storeId,
    );
    return chunks.sort((a, b) => a.index - b.index).map((chunk) => ({ type: 'text', text: chunk.text }));
  }

  private async batch(storeId: string, batchId: string): Promise<StoredBatch> {
    await this.vectorStore(storeId);
    const row = await this.get<StoredBatch>('batches', batchId);
    if (!row || row.vector_store_id !== storeId) throw notFound('file batch', batchId, 'batch_id');
    return row;
  }

  private batchEntries = async (storeId: string, batchId: string) =>
    (await this.all<StoredEntry>('entries', 'store', storeId)).filter((entry) => entry.batch_id === batchId);

  async getBatch(storeId: string, batchId: string): Promise<FileBatch> {
    const row = await this.batch(storeId, batchId);
    return this.publicBatch(row, await this.batchEntries(storeId, batchId));
  }

  /** Cancels a batch: its files still in progress end `cancelled` (their ingestion is discarded). */
  async cancelBatch(storeId: string, batchId: string): Promise<FileBatch> {
    const row = { ...(await this.batch(storeId, batchId)), cancelled: true };
    await this.db.write(['entries', 'batches'], async (store) => {
      const entries = (await done(store('entries').index('store').getAll(storeId))) as StoredEntry[];
      for (const entry of entries)
        if (entry.batch_id === batchId && entry.status === 'in_progress')
          store('entries').put({ ...entry, status: 'cancelled' });
      store('batches').put(row);
    });
    return this.getBatch(storeId, batchId);
  }

  // Ingestion

  /** Store files left `in_progress` (by a reload mid-ingestion): what to ingest again. */
  async pending(): Promise<{ storeId: string; fileId: string }[]> {
    const entries = await this.all<StoredEntry>('entries');
    return entries
      .filter((entry) => entry.status === 'in_progress')
      .map((entry) => ({ storeId: entry.vector_store_id, fileId: entry.id }));
  }

  /**
   * A store file's chunks, parsed and cut here; an unreadable file ends `failed` with a
   * `last_error` naming why, and undefined comes back. Undefined too when the entry is gone.
   */
  async prepare(
    storeId: string,
    fileId: string,
    tokenizer: ChunkTokenizer,
  ): Promise<{ chunks: PreparedChunk[]; strategy: StaticChunking } | undefined> {
    const entry = await this.get<StoredEntry>('entries', keyOf(storeId, fileId));
    if (entry?.status !== 'in_progress') return undefined;
    try {
      const { file, bytes } = await this.fileContent(fileId);
      return await prepareChunks({ name: file.filename, type: file.type, bytes }, entry.requested, tokenizer);
    } catch (error) {
      await this.fail(storeId, fileId, lastErrorOf(error));
      return undefined;
    }
  }

  /**
   * Ends an ingestion: the chunks with their vectors land with the entry `completed` (its chunking
   * strategy the static one used), unless it was cancelled or removed meanwhile. Without
   * `keepBytes` the file's bytes go in the same transaction.
   */
  async complete(
    storeId: string,
    fileId: string,
    chunks: (PreparedChunk & { vector: Float32Array })[],
    strategy: StaticChunking,
    origin: VectorOrigin,
    keepBytes: boolean,
  ) {
    const stored = await this.db.write(['entries', 'chunks', 'stores', 'blobs'], async (store) => {
      const entry = (await done(store('entries').get(keyOf(storeId, fileId)))) as StoredEntry | undefined;
      const row = (await done(store('stores').get(storeId))) as StoredVectorStore | undefined;
      if (entry?.status !== 'in_progress' || !row) return undefined;
      if (row.origin && row.origin.dimensions !== origin.dimensions) {
        const last_error: LastError = {
          code: 'server_error',
          message: `The store holds ${row.origin.dimensions}-dimension vectors of ${row.origin.model}; this file's are ${origin.dimensions}.`,
        };
        store('entries').put({ ...entry, status: 'failed', last_error });
        return undefined;
      }
      const rows = chunks.map(({ vector, index, text, headings, pages, fields }): StoredChunk => ({
        id: `${storeId}/${fileId}/${index}`,
        store_id: storeId,
        file_id: fileId,
        index,
        text,
        headings,
        ...(pages ? { pages } : {}),
        metadata: { ...fields, ...entry.attributes },
        vector,
        words: words(indexedText(headings, text)).join(' '),
      }));
      const usage = rows.reduce(
        (sum, chunk) => sum + new TextEncoder().encode(chunk.text).length + chunk.vector.byteLength,
        0,
      );
      for (const chunk of rows) store('chunks').put(chunk);
      store('entries').put({
        ...entry,
        status: 'completed',
        usage_bytes: usage,
        chunking_strategy: { type: 'static', static: strategy },
      });
      const from = row.version ?? 0;
      store('stores').put({ ...row, origin: row.origin ?? origin, version: from + 1 });
      if (!keepBytes) store('blobs').delete(fileId);
      return { rows, moved: [from, from + 1] as Bump };
    });
    if (!stored) return;
    if (this.follows(storeId, stored.moved)) this.resident.apply(storeId, stored.rows.map(this.indexed), []);
    this.announce(storeId);
  }

  async fail(storeId: string, fileId: string, last_error: LastError): Promise<void> {
    await this.db.write(['entries'], async (store) => {
      const entry = (await done(store('entries').get(keyOf(storeId, fileId)))) as StoredEntry | undefined;
      if (entry?.status === 'in_progress') store('entries').put({ ...entry, status: 'failed', last_error });
    });
  }

  // Search

  private indexed = (chunk: StoredChunk): IndexedChunk => ({
    id: chunk.id,
    text: indexedText(chunk.headings, chunk.text),
    vector: chunk.vector,
    metadata: chunk.metadata,
    scope: {},
    ...(chunk.words === undefined ? {} : { words: chunk.words ? chunk.words.split(' ') : [] }),
    chunk,
  });

  /**
   * After this worker's write moved a store's version: whether its held index may follow the write
   * (it was current before it); if not, the index is dropped, to be loaded again when searched.
   */
  private follows(storeId: string, moved: Bump | undefined): boolean {
    if (moved && this.resident.get(storeId) && this.versions.get(storeId) === moved[0]) {
      this.versions.set(storeId, moved[1]);
      return true;
    }
    this.resident.drop(storeId);
    return false;
  }

  /** Drops a file's chunks from this tab's copy of a store (after `moved`, if given) and tells the other tabs. */
  private dropFromIndex(storeId: string, fileId: string, moved?: Bump) {
    this.announce(storeId);
    if (moved && !this.follows(storeId, moved)) return;
    const index = this.resident.get(storeId);
    if (!index) return;
    for (const item of [...index.all()]) if (item.chunk.file_id === fileId) index.remove(item.id);
  }

  /** A store's index, loaded again when missing or behind the store's version. */
  private async index(storeId: string): Promise<RetrievalIndex<IndexedChunk> | undefined> {
    return this.indexOf(await this.vectorStore(storeId));
  }

  private async indexOf(row: StoredVectorStore): Promise<RetrievalIndex<IndexedChunk> | undefined> {
    if (!row.origin) return undefined;
    const held = this.resident.get(row.id);
    if (held && this.versions.get(row.id) === (row.version ?? 0)) return held;
    // A load started before a write this search has seen would miss it: only a load at this version is shared.
    const version = row.version ?? 0;
    const shared = this.loading.get(row.id);
    if (shared?.version === version) return shared.index;
    const loading = {
      version,
      index: this.load(row.id, row.origin.dimensions).finally(() => {
        if (this.loading.get(row.id) === loading) this.loading.delete(row.id);
      }),
    };
    this.loading.set(row.id, loading);
    return loading.index;
  }

  /** Reads a store's chunks and its version in one snapshot (one page: they are read at once) into a fresh index. */
  private async load(storeId: string, dimensions: number): Promise<RetrievalIndex<IndexedChunk>> {
    const { version, chunks } = await this.db.read(['stores', 'chunks'], async (store) => {
      const [current, chunks] = await Promise.all([
        done(store('stores').get(storeId) as IDBRequest<StoredVectorStore | undefined>),
        done(store('chunks').index('store').getAll(storeId) as IDBRequest<StoredChunk[]>),
      ]);
      return { version: current?.version ?? 0, chunks: chunks.map(this.indexed) };
    });
    this.versions.set(storeId, version);
    return this.resident.load(storeId, dimensions, [chunks]);
  }

  /** Checks that the stores exist and starts loading their indexes (a search waits for them). */
  async ready(storeIds: string[]): Promise<void> {
    for (const storeId of storeIds) this.indexOf(await this.vectorStore(storeId)).catch(() => undefined);
  }

  private async filename(fileId: string): Promise<string> {
    let name = this.filenames.get(fileId);
    if (name === undefined) {
      name = (await this.get<StoredFile>('files', fileId))?.filename ?? '';
      this.filenames.set(fileId, name);
    }
    return name;
  }

  /** The best chunks across stores (each store ranked alone, then merged by score). */
  async search(storeIds: string[], query: ChunkSearch): Promise<SearchResult[]> {
    const results: SearchResult[] = [];
    for (const storeId of storeIds) {
      const index = await this.index(storeId);
      if (!index) continue;
      for (const hit of index.search(query)) {
        const { chunk } = index.get(hit.id)!;
        results.push({
          file_id: chunk.file_id,
          filename: await this.filename(chunk.file_id),
          score: hit.score,
          attributes: chunk.metadata,
          content: [{ type: 'text', text: chunk.text }],
          chunk: {
            id: chunk.id,
            index: chunk.index,
            headings: chunk.headings,
            ...(chunk.pages ? { pages: chunk.pages } : {}),
          },
        });
      }
    }
    return results.sort((a, b) => b.score - a.score).slice(0, query.limit);
  }
}
