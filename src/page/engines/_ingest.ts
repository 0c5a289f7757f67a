/**
 * What one encoder call takes while ingesting: up to `tokens` chunk tokens and `chunks` chunks (the
 * encoder's own largest run). Sized by the benches (docs/performance.md): chunks of a full 512-token
 * window embed as fast one at a time as eight at once, so four per call keep a search's query from
 * waiting behind more than one short call; short records (CSV rows) go 32 a call, the memory
 * bench's fastest batch.
 */
export const INGEST_CALL = { tokens: 2048, chunks: 32 };

/** The chunks cut into encoder calls, in order: [start, end) of each (a chunk over the budget goes alone). */
export function ingestCalls(
  chunks: readonly { tokens?: number }[],
  limits: { tokens: number; chunks: number } = INGEST_CALL,
): [number, number][] {
  const calls: [number, number][] = [];
  let start = 0;
  let tokens = 0;
  chunks.forEach((chunk, i) => {
    const size = chunk.tokens ?? limits.tokens;
    if (i > start && (tokens + size > limits.tokens || i - start >= limits.chunks)) {
      calls.push([start, i]);
      [start, tokens] = [i, 0];
    }
    tokens += size;
  });
  if (start < chunks.length) calls.push([start, chunks.length]);
  return calls;
}

/** What ingesting one store file takes, stage by stage. */
export interface IngestStages<Prepared, Embedded> {
  /** Parse and chunk (the data worker); undefined when there is nothing to embed (failed, gone). */
  prepare(storeId: string, fileId: string): Promise<Prepared | undefined>;
  /** Embed the chunks (the encoder's worker). */
  embed(prepared: Prepared): Promise<Embedded>;
  /** Write the chunks with their vectors (the data worker). */
  store(storeId: string, fileId: string, prepared: Prepared, embedded: Embedded): Promise<void>;
  /** Mark the file failed after an error in any stage. */
  fail(storeId: string, fileId: string, error: unknown): Promise<void>;
}

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/**
 * A queue of store files through three stages, each stage one file at a time and the files in the
 * order given, overlapped across files: the next file parses and chunks in the data worker while
 * this one embeds, and this one's write lands while the next one embeds — the encoder never waits
 * on a parse or an IndexedDB write once a file is queued behind another. At most one parsed file
 * waits for the encoder (a file is parsed once the one before it has reached the encoder).
 */
export function ingestQueue<Prepared, Embedded>(stages: IngestStages<Prepared, Embedded>) {
  let parsed: Promise<unknown> = Promise.resolve();
  let admitted: Promise<unknown> = Promise.resolve();
  let encoded: Promise<unknown> = Promise.resolve();
  return async (storeId: string, fileId: string): Promise<void> => {
    const before = { parsed, admitted, encoded };
    const parse = gate();
    const admit = gate();
    const encode = gate();
    // A stage passes to the next file only after every earlier file has passed it.
    parsed = Promise.all([before.parsed, parse.opened]);
    admitted = Promise.all([before.admitted, admit.opened]);
    encoded = Promise.all([before.encoded, encode.opened]);
    try {
      await Promise.all([before.parsed, before.admitted]);
      let prepared: Prepared | undefined;
      try {
        prepared = await stages.prepare(storeId, fileId);
      } finally {
        parse.open();
      }
      if (prepared === undefined) return;
      await before.encoded;
      admit.open();
      let embedded: Embedded;
      try {
        embedded = await stages.embed(prepared);
      } finally {
        encode.open();
      }
      await stages.store(storeId, fileId, prepared, embedded);
    } catch (error) {
      await stages.fail(storeId, fileId, error).catch(() => undefined);
    } finally {
      parse.open();
      admit.open();
      encode.open();
    }
  };
}
