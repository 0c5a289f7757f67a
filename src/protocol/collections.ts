/** What memory and data collections share: metadata, filters, scopes, search modes, vector origins, list pages. */

/** A metadata value: what items carry and filters compare. */
export type Scalar = string | number | boolean;
export type Metadata = Record<string, Scalar>;

/** OpenAI's attribute filters: a comparison on one key, or `and` / `or` of filters. */
export type ComparisonFilter =
  | { type: 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte'; key: string; value: Scalar }
  | { type: 'in' | 'nin'; key: string; value: Scalar[] };
export type CompoundFilter = { type: 'and' | 'or'; filters: Filter[] };
export type Filter = ComparisonFilter | CompoundFilter;

/**
 * Who a memory belongs to: any string fields, such as `user_id`, `agent_id`, `run_id`, and
 * `namespace`, a `/`-separated path.
 */
export type Scope = Record<string, string>;

/** How a search ranks: by meaning (vectors), by keywords (BM25), or both fused. */
export type SearchMode = 'semantic' | 'keyword' | 'hybrid';

/** What produced a stored vector (recorded per memory; two models' vectors never mix in one store). */
export interface VectorOrigin {
  model: string;
  source: string;
  revision: string;
  dimensions: number;
  /** The passage prefix put before the text when it was embedded. */
  prefix: string;
}

export interface ListParams {
  limit: number;
  order: 'asc' | 'desc';
  after?: string;
  before?: string;
}

export interface Page<T> {
  data: T[];
  has_more: boolean;
}
