import { Bm25Index } from './bm25';
import type { Filter, Metadata, Scope, SearchMode } from '../../protocol/collections';
import { matches } from './filter';
import { fuseRanks } from './fusion';
import { inScope } from './scope';
import type { Ranked } from './top-k';
import { VectorIndex } from './vectors';

export { matches } from './filter';
export { inScope } from './scope';
export { words } from './tokenize';

/** What the index holds per item: text for keywords, a unit vector for meaning, metadata and scope for filters. */
export interface Indexed {
  id: string;
  text: string;
  vector: Float32Array;
  metadata: Metadata;
  scope: Scope;
  /** `words(text)` where already known (a stored chunk's): the keyword index takes them as they are. */
  words?: string[];
}

export interface SearchQuery {
  text: string;
  /** The query's embedding; needed by semantic and hybrid modes. */
  vector?: Float32Array;
  mode: SearchMode;
  filters?: Filter;
  scope?: Scope;
  limit: number;
  /** Results scoring below this are dropped (cosine, BM25 or fused score, by mode). */
  minScore?: number;
}

export interface Hit {
  id: string;
  /** semantic: cosine similarity; keyword: BM25; hybrid: reciprocal-rank fusion in (0, 1]. */
  score: number;
  /** Each signal's own score, when the item was found by it. */
  scores: { semantic?: number; keyword?: number };
}

/** Candidates each signal contributes to hybrid fusion. */
const candidates = (limit: number) => Math.max(limit * 4, 50);

/**
 * Exact hybrid retrieval over items in memory: cosine similarity over unit vectors, BM25 over
 * Unicode words, reciprocal-rank fusion, scope and metadata filters applied before ranking.
 */
export class RetrievalIndex<T extends Indexed = Indexed> {
  private readonly items = new Map<string, T>();
  private readonly vectors: VectorIndex;
  private readonly keywords = new Bm25Index();

  constructor(readonly dimensions: number) {
    this.vectors = new VectorIndex(dimensions);
  }

  get size(): number {
    return this.items.size;
  }

  get(id: string): T | undefined {
    return this.items.get(id);
  }

  all(): IterableIterator<T> {
    return this.items.values();
  }

  put(item: T): void {
    this.vectors.set(item.id, item.vector);
    this.keywords.add(item.id, item.text, item.words);
    this.items.set(item.id, item);
  }

  remove(id: string): boolean {
    this.vectors.remove(id);
    this.keywords.remove(id);
    return this.items.delete(id);
  }

  /** Items passing scope and filters (for listing and deleting by scope). */
  select(scope?: Scope, filters?: Filter): T[] {
    const accept = this.acceptor(scope, filters);
    return [...this.items.values()].filter((item) => !accept || accept(item.id));
  }

  search(query: SearchQuery): Hit[] {
    const accept = this.acceptor(query.scope, query.filters);
    const semantic = (k: number): Ranked[] => {
      if (!query.vector) throw new Error(`A ${query.mode} search needs the query's vector.`);
      return this.vectors.top(query.vector, k, accept);
    };
    const keyword = (k: number): Ranked[] => this.keywords.top(query.text, k, accept);
    let hits: Hit[];
    if (query.mode === 'semantic')
      hits = semantic(query.limit).map(({ id, score }) => ({ id, score, scores: { semantic: score } }));
    else if (query.mode === 'keyword')
      hits = keyword(query.limit).map(({ id, score }) => ({ id, score, scores: { keyword: score } }));
    else {
      const bySense = semantic(candidates(query.limit));
      const byWords = keyword(candidates(query.limit));
      const senseOf = new Map(bySense.map(({ id, score }) => [id, score]));
      const wordsOf = new Map(byWords.map(({ id, score }) => [id, score]));
      hits = fuseRanks([bySense, byWords])
        .slice(0, query.limit)
        .map(({ id, score }) => ({ id, score, scores: { semantic: senseOf.get(id), keyword: wordsOf.get(id) } }));
    }
    return query.minScore === undefined ? hits : hits.filter((hit) => hit.score >= query.minScore!);
  }

  private acceptor(scope?: Scope, filters?: Filter): ((id: string) => boolean) | undefined {
    const scoped = scope && Object.keys(scope).length > 0;
    if (!scoped && !filters) return undefined;
    return (id) => {
      const item = this.items.get(id)!;
      return (!scoped || inScope(item.scope, scope)) && (!filters || matches(filters, item.metadata));
    };
  }
}
