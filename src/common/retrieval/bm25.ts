import { words } from './tokenize';

/** Okapi BM25 parameters (Lucene's defaults). */
export const BM25 = { k1: 1.2, b: 0.75 } as const;

/**
 * An incremental BM25 index over documents keyed by string ids: postings term → (id → term
 * frequency) and document lengths, updated on add and remove.
 */
export class Bm25Index {
  private readonly postings = new Map<string, Map<string, number>>();
  private readonly lengths = new Map<string, number>();
  private readonly terms = new Map<string, string[]>();
  private totalLength = 0;

  get size(): number {
    return this.lengths.size;
  }

  add(id: string, text: string): void {
    this.remove(id);
    const tokens = words(text);
    const counts = new Map<string, number>();
    for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
    for (const [term, count] of counts) {
      let list = this.postings.get(term);
      if (!list) this.postings.set(term, (list = new Map()));
      list.set(id, count);
    }
    this.lengths.set(id, tokens.length);
    this.terms.set(id, [...counts.keys()]);
    this.totalLength += tokens.length;
  }

  remove(id: string): void {
    const terms = this.terms.get(id);
    if (!terms) return;
    for (const term of terms) {
      const list = this.postings.get(term)!;
      list.delete(id);
      if (!list.size) this.postings.delete(term);
    }
    this.totalLength -= this.lengths.get(id)!;
    this.lengths.delete(id);
    this.terms.delete(id);
  }

  /** BM25 score of every document holding a query word (each distinct query word counted once). */
  scores(query: string, accept?: (id: string) => boolean): Map<string, number> {
    const out = new Map<string, number>();
    const count = this.lengths.size;
    if (!count) return out;
    const average = this.totalLength / count || 1;
    for (const term of new Set(words(query))) {
      const list = this.postings.get(term);
      if (!list) continue;
      const idf = Math.log(1 + (count - list.size + 0.5) / (list.size + 0.5));
      for (const [id, tf] of list) {
        if (accept && !accept(id)) continue;
        const norm = tf + BM25.k1 * (1 - BM25.b + (BM25.b * this.lengths.get(id)!) / average);
        out.set(id, (out.get(id) ?? 0) + (idf * tf * (BM25.k1 + 1)) / norm);
      }
    }
    return out;
  }
}
