import { APIError } from './errors';
import { sseData } from '../../common/sse';
import type {
  FileBatch,
  FileCitation,
  SearchResult,
  StaticChunking,
  VectorStore,
  VectorStoreFile,
} from '../../protocol/data';
import type { Filter, Metadata } from '../../protocol/collections';

/** The name of the store `ai.data` uses when none is named. */
const DEFAULT_STORE = 'ai.data';

export interface DataAddOptions {
  /** A vector store id; default: the store named 'ai.data', made on first use. */
  store?: string;
  attributes?: Metadata;
  chunking?: StaticChunking;
  signal?: AbortSignal;
}

export interface DataSearchOptions {
  /** Vector store ids; default: the 'ai.data' store. */
  stores?: string[];
  filters?: Filter;
  max_num_results?: number;
  score_threshold?: number;
}

export interface DataAnswer {
  answer: { role: 'assistant'; content: string; annotations: FileCitation[] };
  invented_citations: number[];
  results: (SearchResult & { passage: number })[];
  finish_reason: string | null;
}

/** `progress` events of `ai.data`: each file's status as its ingestion moves on. */
export type DataProgress = Pick<VectorStoreFile, 'id' | 'status' | 'last_error' | 'vector_store_id'> & {
  filename: string;
};

/**
 * `ai.data`: the files, vector store and query routes as methods, for apps that do not speak HTTP.
 * It is an EventTarget: `progress` events (a `CustomEvent<DataProgress>`) follow each added file.
 */
export interface DataClient extends EventTarget {
  /** Uploads files and adds them to a store in one batch; resolves when every file is ingested or failed. */
  add(files: File | File[], options?: DataAddOptions): Promise<{ store: string; files: VectorStoreFile[] }>;
  search(query: string, options?: DataSearchOptions): Promise<SearchResult[]>;
  /** A grounded answer with citations; `onText` gets the answer as it streams. */
  ask(
    query: string,
    options?: DataSearchOptions & { model?: string; onText?(text: string): void },
  ): Promise<DataAnswer>;
  /** The id of the default store (made on first use). */
  defaultStore(): Promise<string>;
}

const POLL_MS = 250;

export function dataClient(fetcher: typeof fetch, baseURL: string): DataClient {
  const events = new EventTarget();
  const request = async (method: string, path: string, body?: unknown, signal?: AbortSignal) => {
    const form = body instanceof FormData;
    const response = await fetcher(`${baseURL}${path}`, {
      method,
      signal,
      headers: {
        authorization: 'Bearer local',
        ...(body === undefined || form ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : form ? body : JSON.stringify(body),
    });
    if (!response.ok) throw await APIError.fromResponse(response);
    return response;
  };
  const call = async <T>(method: string, path: string, body?: unknown, signal?: AbortSignal) =>
    (await (await request(method, path, body, signal)).json()) as T;

  let fallback: Promise<string> | undefined;
  const defaultStore = () =>
    (fallback ??= (async () => {
      const stores = await call<{ data: VectorStore[] }>('GET', '/vector_stores?limit=100');
      const found = stores.data.find((store) => store.name === DEFAULT_STORE);
      return found?.id ?? (await call<VectorStore>('POST', '/vector_stores', { name: DEFAULT_STORE })).id;
    })().catch((error: unknown) => {
      fallback = undefined;
      throw error;
    }));
  const storesOf = async (options: DataSearchOptions) => options.stores ?? [await defaultStore()];
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  return Object.assign(events, {
    defaultStore,
    async add(files: File | File[], options: DataAddOptions = {}) {
      const store = options.store ?? (await defaultStore());
      const uploaded: { id: string; filename: string }[] = [];
      for (const file of [files].flat()) {
        const form = new FormData();
        form.set('purpose', 'assistants');
        form.set('file', file);
        uploaded.push(await call('POST', '/files', form, options.signal));
      }
      const chunking = options.chunking ? { type: 'static', static: options.chunking } : undefined;
      const batch = await call<FileBatch>(
        'POST',
        `/vector_stores/${store}/file_batches`,
        { file_ids: uploaded.map((file) => file.id), attributes: options.attributes, chunking_strategy: chunking },
        options.signal,
      );
      const names = new Map(uploaded.map((file) => [file.id, file.filename]));
      const seen = new Map<string, string>();
      for (;;) {
        const page = await call<{ data: VectorStoreFile[] }>(
          'GET',
          `/vector_stores/${store}/file_batches/${batch.id}/files?limit=100`,
          undefined,
          options.signal,
        );
        for (const entry of page.data) {
          if (seen.get(entry.id) === entry.status) continue;
          seen.set(entry.id, entry.status);
          const { id, status, last_error, vector_store_id } = entry;
          const detail: DataProgress = { id, status, last_error, vector_store_id, filename: names.get(id) ?? '' };
          events.dispatchEvent(new CustomEvent('progress', { detail }));
        }
        if (!page.data.some((entry) => entry.status === 'in_progress')) return { store, files: page.data };
        await sleep(POLL_MS);
      }
    },
    async search(query: string, options: DataSearchOptions = {}) {
      const stores = await storesOf(options);
      if (stores.length > 1) {
        const { stores: _stores, ...rest } = options;
        const body = { ...rest, query, vector_store_ids: stores, mode: 'search' };
        return (await call<{ results: SearchResult[] }>('POST', '/data/query', body)).results;
      }
      const body = {
        query,
        filters: options.filters,
        max_num_results: options.max_num_results,
        ranking_options:
          options.score_threshold === undefined ? undefined : { score_threshold: options.score_threshold },
      };
      return (await call<{ data: SearchResult[] }>('POST', `/vector_stores/${stores[0]}/search`, body)).data;
    },
    async ask(query: string, options: DataSearchOptions & { model?: string; onText?(text: string): void } = {}) {
      const { stores: _stores, onText, ...rest } = options;
      const response = await request('POST', '/data/query', {
        ...rest,
        query,
        vector_store_ids: await storesOf(options),
        stream: true,
      });
      let final: DataAnswer | undefined;
      for await (const data of sseData(response.body!)) {
        const event = JSON.parse(data);
        if (event.error) throw APIError.fromEvent(event);
        if (event.object === 'data.query.chunk') onText?.(event.delta.content);
        if (event.object === 'data.query') final = event;
      }
      if (!final)
        throw APIError.generate(500, {
          error: { message: 'The answer stream ended before its final object.', code: 'internal_error' },
        });
      return final;
    },
  }) as DataClient;
}
