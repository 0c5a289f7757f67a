/** The peer: Orama's vector search over the same vectors, in its own worker (as Vaani's search runs in one). */
import { create, insertMultiple, search, type AnyOrama } from '@orama/orama';
import { expose } from 'comlink';

let db: AnyOrama;

const api = {
  async reset(dimensions: number): Promise<void> {
    db = create({ schema: { text: 'string', embedding: `vector[${dimensions}]` } as const });
  },
  async add(ids: string[], vectors: Float32Array[]): Promise<void> {
    await insertMultiple(
      db,
      ids.map((id, i) => ({ id, text: id, embedding: Array.from(vectors[i]!) })),
    );
  },
  /** Top `limit` by cosine; the ids and the time of the search alone. */
  async search(vector: Float32Array, limit: number): Promise<{ ms: number; ids: string[] }> {
    const start = performance.now();
    const result = await search(db, {
      mode: 'vector',
      vector: { value: Array.from(vector), property: 'embedding' },
      similarity: 0,
      limit,
    } as never);
    return { ms: performance.now() - start, ids: (result as { hits: { id: string }[] }).hits.map((hit) => hit.id) };
  },
};

export type SearchOrama = typeof api;
expose(api);
