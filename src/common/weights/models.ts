import pLimit from 'p-limit';
import { StoreError } from './errors';
import { storeBlob } from './download';
import { DEFAULT_CHUNK_SIZE, ensureFile } from './files';
import { FOLDER_MANIFEST, parseFolderManifest } from './loader';
import { cachedModels, clearAll, deleteModel, fileBytes, readRecord, storageAvailable, touchRecord } from './idb';
import { ensureSpace } from './space';
import { broadcast, listen, modelProgress, type StoreMessage } from './progress';
import type {
  CachedModel,
  FileProgress,
  FileSpec,
  FileState,
  ModelFiles,
  ModelProgress,
  ModelStatus,
  StoreOptions,
} from './types';

export interface ModelLoadOptions {
  signal?: AbortSignal;
  onProgress?(progress: ModelProgress): void;
}

/** A file for `import`: a `File` from a folder picker or a drop (its path inside the folder is read from `webkitRelativePath`), or a path and its bytes. */
export type ImportedFile = File | { path: string; file: Blob };

/**
 * `ai.models`: downloads and manages cached models. Events (CustomEvent, `detail` shown):
 * 'progress' ModelProgress (from any tab or worker loading a model), 'loaded' ModelStatus,
 * 'evicted' / 'deleted' { model }, 'cleared' {}. An id that reads another id's files (agent-v1 →
 * chat-v2) is recorded as that id: one copy, listed once by `cached()`, deleted by either id.
 */
export interface Models extends EventTarget {
  load(id: string, options?: ModelLoadOptions): Promise<ModelStatus>;
  /**
   * Caches a model's files from disk under `id` (an air-gapped machine needs no server): each file
   * is stored where the model loads it from, checked as downloads are (size, ONNX start, and each
   * file's size and SHA-256 when a vaani-manifest.json is among them). Answers what was stored.
   */
  import(id: string, files: Iterable<ImportedFile>, options?: ModelLoadOptions): Promise<CachedModel>;
  status(id: string): Promise<ModelStatus>;
  cached(): Promise<CachedModel[]>;
  delete(id: string): Promise<boolean>;
  clear(): Promise<void>;
}

/** Resolves a model id to its base URL and file list; undefined when the id has none. */
export type ModelResolver = (id: string) => Promise<ModelFiles | undefined>;

interface Planned {
  spec: FileSpec;
  url: string;
  state: FileState;
  bytes: number;
  size: number | undefined;
}

/** A picked or dropped file's path inside the chosen folder (the folder's own name dropped). */
const relativePath = (file: File) => file.webkitRelativePath.split('/').slice(1).join('/') || file.name;

async function headSize(url: string, signal?: AbortSignal): Promise<number | undefined> {
  const response = await fetch(url, { method: 'HEAD', cache: 'no-store', signal }).catch(() => undefined);
  const length =
    response?.ok && !response.headers.get('content-encoding') ? response.headers.get('content-length') : null;
  return length === null || length === undefined ? undefined : Number(length);
}

export class ModelStore extends EventTarget implements Models {
  private readonly seen = new Map<string, Map<string, FileProgress>>();
  private stop: (() => void) | undefined;

  constructor(
    private readonly resolve: ModelResolver,
    private readonly options: StoreOptions = {},
    /** Where a model's files are loaded from (its source's base URL). */
    private readonly baseOf: (id: string) => string = () => {
      throw new StoreError('unknown_model', 'This store cannot import: it knows no model sources.');
    },
    /** The id a model's files are recorded under: another id's when it reads that id's files (agent-v1 → chat-v2). */
    private readonly recordOf: (id: string) => string = (id) => id,
  ) {
    super();
  }

  /** Listens to the origin's store messages from the first listener on (an open channel would keep Node alive). */
  override addEventListener(...args: Parameters<EventTarget['addEventListener']>): void {
    this.stop ??= listen((message) => this.onMessage(message));
    super.addEventListener(...args);
  }

  async load(id: string, { signal, onProgress }: ModelLoadOptions = {}): Promise<ModelStatus> {
    if (!(await storageAvailable())) {
      throw new StoreError(
        'storage_unavailable',
        `Model ${id} cannot be cached: IndexedDB is not available here (private windows, sandboxed frames and blocked site data deny it). Requests still work; each engine downloads its files when it starts.`,
      );
    }
    const limit = pLimit(this.options.concurrency ?? 3);
    const planned = await this.plan(id, signal, true);
    const needed = planned.reduce(
      (sum, file) => sum + (file.state === 'cached' ? 0 : (file.size ?? 0) - file.bytes),
      0,
    );
    const where = planned[0] ? new URL('.', planned[0].url).href : '';
    const record = this.recordOf(id);
    await ensureSpace({ needed, model: record, budget: this.options.budget, file: `model ${id}`, url: where });
    await touchRecord(record, Object.fromEntries(planned.map((file) => [file.spec.name, file.url])));

    const current = new Map(
      planned.map((file) => [
        file.url,
        {
          file: file.spec.name,
          url: file.url,
          model: id,
          loaded: file.bytes,
          total: file.size,
          fraction: undefined,
          rate: 0,
          eta: undefined,
        } as FileProgress,
      ]),
    );
    const report = () => onProgress?.(modelProgress(id, [...current.values()]));
    const stopAll = new AbortController();
    const onAbort = () => stopAll.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    report();
    try {
      await Promise.all(
        planned.map((file) =>
          limit(async () => {
            try {
              await ensureFile({
                spec: file.spec,
                url: file.url,
                model: record,
                options: this.options,
                signal: stopAll.signal,
                onProgress(progress) {
                  current.set(file.url, { ...progress, file: file.spec.name, model: id });
                  report();
                },
              });
            } catch (error) {
              if (file.spec.optional && error instanceof StoreError && error.code === 'file_not_found') {
                current.delete(file.url);
                return;
              }
              stopAll.abort(error);
              throw error;
            }
          }),
        ),
      );
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
    const status = await this.status(id);
    this.dispatchEvent(new CustomEvent('loaded', { detail: status }));
    return status;
  }

  async import(id: string, files: Iterable<ImportedFile>, { signal, onProgress }: ModelLoadOptions = {}) {
    if (!(await storageAvailable()))
      throw new StoreError('storage_unavailable', `Model ${id} cannot be imported: IndexedDB is not available here.`);
    const base = this.baseOf(id);
    const record = this.recordOf(id);
    const given = [...files].map((item) => (item instanceof File ? { path: relativePath(item), file: item } : item));
    if (!given.length) throw new StoreError('file_not_found', `No files were given to import as model ${id}.`);
    const manifestFile = given.find((item) => item.path === FOLDER_MANIFEST);
    const listed = manifestFile
      ? parseFolderManifest(await manifestFile.file.text(), `${id}'s ${FOLDER_MANIFEST}`).files
      : [];
    const total = given.reduce((sum, item) => sum + item.file.size, 0);
    await ensureSpace({ needed: total, model: record, budget: this.options.budget, file: `model ${id}`, url: base });
    const urls: Record<string, string> = {};
    let done = 0;
    for (const { path, file } of given) {
      signal?.throwIfAborted();
      const url = new URL(path, base).href;
      const spec = listed.find((entry) => entry.name === path) ?? { name: path, size: file.size };
      const progress = (loaded: number) =>
        onProgress?.(
          modelProgress(id, [
            {
              file: path,
              url,
              model: id,
              loaded: done + loaded,
              total,
              fraction: (done + loaded) / total,
              rate: 0,
              eta: undefined,
            },
          ]),
        );
      await storeBlob(
        {
          spec,
          url,
          model: record,
          signal,
          chunkSize: this.options.chunkSize ?? DEFAULT_CHUNK_SIZE,
          budget: this.options.budget,
          onBytes: progress,
        },
        file,
      );
      done += file.size;
      urls[path] = url;
      broadcast({ type: 'cached', url, model: record });
    }
    const missing = listed.filter((entry) => !urls[entry.name]).map((entry) => entry.name);
    if (missing.length)
      throw new StoreError(
        'file_not_found',
        `The import of ${id} lacks files its ${FOLDER_MANIFEST} lists: ${missing.join(', ')}. The files given are cached; import the rest to complete it.`,
      );
    await touchRecord(record, { ...(await readRecord(record))?.files, ...urls });
    return (await cachedModels()).find((model) => model.id === record)!;
  }

  async status(id: string): Promise<ModelStatus> {
    const stored = await storageAvailable();
    const planned = await this.plan(id);
    const locks = await globalThis.navigator?.locks?.query().catch(() => undefined);
    const held = new Set(locks?.held?.map((lock) => lock.name) ?? []);
    const files = planned.map((file) => ({
      file: file.spec.name,
      state: file.state !== 'cached' && held.has(`vaani-store:${file.url}`) ? ('downloading' as const) : file.state,
      bytes: file.bytes,
      size: file.size,
    }));
    const required = files.filter((file, i) => !planned[i]!.spec.optional || file.state !== 'absent');
    const state: FileState =
      required.length > 0 && required.every((file) => file.state === 'cached')
        ? 'cached'
        : files.some((file) => file.state === 'downloading')
          ? 'downloading'
          : files.some((file) => file.bytes > 0)
            ? 'partial'
            : 'absent';
    const sizes = required.map((file) => file.size);
    const total = sizes.every((size): size is number => size !== undefined)
      ? sizes.reduce((sum, size) => sum + size, 0)
      : undefined;
    return {
      id,
      state,
      bytes: files.reduce((sum, file) => sum + file.bytes, 0),
      total,
      lastUsed: stored ? (await readRecord(this.recordOf(id)))?.lastUsed : undefined,
      files,
    };
  }

  async cached(): Promise<CachedModel[]> {
    return (await storageAvailable()) ? cachedModels() : [];
  }

  async delete(id: string): Promise<boolean> {
    if (!(await storageAvailable())) return false;
    const record = this.recordOf(id);
    const deleted = await deleteModel(record);
    this.seen.delete(record);
    if (deleted) broadcast({ type: 'deleted', model: record });
    return deleted;
  }

  async clear(): Promise<void> {
    if (!(await storageAvailable())) return;
    await clearAll();
    this.seen.clear();
    broadcast({ type: 'cleared' });
  }

  dispose(): void {
    this.stop?.();
    this.stop = undefined;
  }

  /** Each file of the model with its URL: from the resolver, else from what the cache recorded. */
  private async targets(id: string): Promise<{ spec: FileSpec; url: string }[]> {
    const resolved = await this.resolve(id);
    if (resolved) return resolved.files.map((spec) => ({ spec, url: new URL(spec.name, resolved.base).href }));
    const record = (await storageAvailable()) ? await readRecord(this.recordOf(id)) : undefined;
    if (record) return Object.entries(record.files).map(([name, url]) => ({ spec: { name }, url }));
    throw new StoreError(
      'unknown_model',
      `No files are known for model '${id}': list them with createVaani({ models: { '${id}': { baseURL, files: [...] } } }).`,
    );
  }

  /** Each file's URL, cache state and size (asking the server with HEAD when `probe` and nothing else knows it). */
  private async plan(id: string, signal?: AbortSignal, probe = false): Promise<Planned[]> {
    const stored = await storageAvailable();
    return Promise.all(
      (await this.targets(id)).map(async ({ spec, url }) => {
        const cache = stored ? await fileBytes(url) : { state: 'absent' as const, bytes: 0, size: undefined };
        const size =
          spec.size ?? cache.size ?? (probe && cache.state !== 'cached' ? await headSize(url, signal) : undefined);
        return { spec, url, state: cache.state, bytes: cache.bytes, size };
      }),
    );
  }

  private onMessage(message: StoreMessage): void {
    if (message.type === 'progress') {
      const { model } = message.progress;
      if (!model) return;
      const files = this.seen.get(model) ?? new Map<string, FileProgress>();
      this.seen.set(model, files.set(message.progress.url, message.progress));
      this.dispatchEvent(new CustomEvent('progress', { detail: modelProgress(model, [...files.values()]) }));
    } else if (message.type === 'cleared') this.dispatchEvent(new CustomEvent('cleared', { detail: {} }));
    else if (message.type !== 'cached')
      this.dispatchEvent(new CustomEvent(message.type, { detail: { model: message.model } }));
  }
}
