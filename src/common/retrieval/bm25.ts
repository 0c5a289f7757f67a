import { words } from './tokenize';
import { TopK, type Ranked } from './top-k';

/** Okapi BM25 parameters (Lucene's defaults). */
export const BM25 = { k1: 1.2, b: 0.75 } as const;

/** A term's documents (slots, dead ones included) and term frequencies, and how many are living. */
interface Postings {
  slots: number[];
  tfs: number[];
  live: number;
}

/**
 * An incremental BM25 index over documents keyed by string ids. Each document holds a numbered
 * slot; postings are term → (slots, term frequencies) arrays, and scoring sums into one typed
 * array, so a query costs a few array passes however common its words. A removed document's slot
 * is dead until the postings are compacted (when the dead outnumber the living).
 */
export class Bm25Index {
  private readonly postings = new Map<string, Postings>();
  private readonly slotOf = new Map<string, number>();
  /** Per slot: its id (undefined once removed), its length and its distinct terms. */
  private ids: (string | undefined)[] = [];
  private lengths: number[] = [];
  private terms: string[][] = [];
  private totalLength = 0;
  private dead = 0;
  private sums = new Float64Array(0);

  get size(): number {
    return this.slotOf.size;
  }

  /** Indexes `text` under `id` (replacing it); `tokens`, where given, are its `words`. */
  add(id: string, text: string, tokens: string[] = words(text)): void {
    this.remove(id);
    const counts = new Map<string, number>();
    for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
    const slot = this.ids.length;
    for (const [term, count] of counts) {
      let list = this.postings.get(term);
      if (!list) this.postings.set(term, (list = { slots: [], tfs: [], live: 0 }));
      list.slots.push(slot);
      list.tfs.push(count);
      list.live++;
    }
    this.ids.push(id);
    this.lengths.push(tokens.length);
    this.terms.push([...counts.keys()]);
    this.slotOf.set(id, slot);
    this.totalLength += tokens.length;
  }

  remove(id: string): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.slotOf.delete(id);
    this.ids[slot] = undefined;
    this.totalLength -= this.lengths[slot]!;
    for (const term of this.terms[slot]!) this.postings.get(term)!.live--;
    if (++this.dead > this.slotOf.size) this.compact();
  }

  /** BM25 score of every document holding a query word (each distinct query word counted once). */
  scores(query: string, accept?: (id: string) => boolean): Map<string, number> {
    const out = new Map<string, number>();
    this.each(query, accept, (id, score) => out.set(id, score));
    return out;
  }

  /** The `k` best-scoring accepted documents, best first. */
  top(query: string, k: number, accept?: (id: string) => boolean): Ranked[] {
    const best = new TopK(k);
    this.each(query, accept, (id, score) => best.offer(id, score));
    return best.sorted();
  }

  private each(
    query: string,
    accept: ((id: string) => boolean) | undefined,
    visit: (id: string, score: number) => void,
  ) {
    const count = this.slotOf.size;
    if (!count) return;
    const average = this.totalLength / count || 1;
    const { ids, lengths } = this;
    if (this.sums.length < ids.length) this.sums = new Float64Array(Math.max(ids.length, this.sums.length * 2));
    const sums = this.sums;
    const touched: number[] = [];
    const lists: Postings[] = [];
    for (const term of new Set(words(query))) {
      const list = this.postings.get(term);
      if (list) lists.push(list);
    }
    const lengthScale = (BM25.k1 * BM25.b) / average;
    const base = BM25.k1 * (1 - BM25.b);
    for (const { slots, tfs, live } of lists) {
      if (!live) continue;
      const idf = Math.log(1 + (count - live + 0.5) / (live + 0.5));
      for (let i = 0; i < slots.length; i++) {
        const slot = slots[i]!;
        if (ids[slot] === undefined) continue;
        const tf = tfs[i]!;
        if (sums[slot] === 0) touched.push(slot);
        sums[slot] = sums[slot]! + (idf * tf * (BM25.k1 + 1)) / (tf + base + lengthScale * lengths[slot]!);
      }
    }
    for (const slot of touched) {
      const id = ids[slot]!;
      const score = sums[slot]!;
      sums[slot] = 0;
      if (!accept || accept(id)) visit(id, score);
    }
  }

  /** Renumbers the living documents from 0 and drops the dead from every posting list. */
  private compact(): void {
    const renumber = new Int32Array(this.ids.length).fill(-1);
    const ids: string[] = [];
    const lengths: number[] = [];
    const terms: string[][] = [];
    this.ids.forEach((id, slot) => {
      if (id === undefined) return;
      renumber[slot] = ids.length;
      this.slotOf.set(id, ids.length);
      ids.push(id);
      lengths.push(this.lengths[slot]!);
      terms.push(this.terms[slot]!);
    });
    for (const [term, list] of this.postings) {
      const next: Postings = { slots: [], tfs: [], live: list.live };
      list.slots.forEach((slot, i) => {
        if (renumber[slot]! < 0) return;
        next.slots.push(renumber[slot]!);
        next.tfs.push(list.tfs[i]!);
      });
      if (next.live) this.postings.set(term, next);
      else this.postings.delete(term);
    }
    this.ids = ids;
    this.lengths = lengths;
    this.terms = terms;
    this.dead = 0;
  }
}
