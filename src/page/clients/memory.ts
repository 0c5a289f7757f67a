import { APIError } from './errors';
import type { Memory, MemoryHit } from '../../protocol/memory';
import type { Filter, Metadata, Scope, SearchMode } from '../../protocol/collections';

export interface MemoryItemInput {
  text: string;
  metadata?: Metadata;
  scope?: Scope;
}

export interface MemorySearchInput {
  query: string;
  mode?: SearchMode;
  scope?: Scope;
  filters?: Filter;
  limit?: number;
  min_score?: number;
}

export interface MemoryListInput {
  scope?: Scope;
  limit?: number;
  after?: string;
  order?: 'asc' | 'desc';
}

export interface MemoryListPage {
  data: Memory[];
  first_id: string | null;
  last_id: string | null;
  has_more: boolean;
}

/** `ai.memory`: the memory routes as methods, for apps that do not speak HTTP. */
export interface MemoryClient {
  store(
    items: MemoryItemInput | MemoryItemInput[],
    options?: { scope?: Scope; metadata?: Metadata },
  ): Promise<Memory[]>;
  search(query: MemorySearchInput): Promise<MemoryHit[]>;
  get(id: string): Promise<Memory>;
  list(params?: MemoryListInput): Promise<MemoryListPage>;
  update(id: string, patch: { text?: string; metadata?: Metadata; scope?: Scope }): Promise<Memory>;
  delete(id: string): Promise<void>;
  deleteScope(scope: Scope, filters?: Filter): Promise<number>;
}

export function memoryClient(fetcher: typeof fetch, baseURL: string): MemoryClient {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetcher(`${baseURL}${path}`, {
      method,
      headers: { authorization: 'Bearer local', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw await APIError.fromResponse(response);
    return (await response.json()) as T;
  };
  const id = (value: string) => `/memory/${encodeURIComponent(value)}`;
  return {
    store: async (items, options = {}) =>
      (await call<{ data: Memory[] }>('POST', '/memory/store', { items: [items].flat(), ...options })).data,
    search: async (query) => (await call<{ data: MemoryHit[] }>('POST', '/memory/search', query)).data,
    get: (value) => call('GET', id(value)),
    list: ({ scope = {}, ...params } = {}) => {
      const query = new URLSearchParams(
        Object.entries({ ...scope, ...params }).flatMap(([key, value]) =>
          value === undefined ? [] : [[key, String(value)]],
        ),
      );
      return call('GET', `/memory${query.size ? `?${query}` : ''}`);
    },
    update: (value, patch) => call('POST', id(value), patch),
    delete: async (value) => {
      await call('DELETE', id(value));
    },
    deleteScope: async (scope, filters) =>
      (await call<{ deleted: number }>('POST', '/memory/delete', { scope, filters })).deleted,
  };
}
