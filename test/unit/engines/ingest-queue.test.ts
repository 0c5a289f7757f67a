import { describe, expect, it } from 'vitest';
import { ingestCalls, ingestQueue } from '../../../src/page/engines/_ingest';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Stages that log when each starts and ends; `slow` stages take longer, a file named `bad-*` fails where told. */
function recorder(fail: Record<string, 'prepare' | 'embed' | 'skip'> = {}) {
  const log: string[] = [];
  let embedding = 0;
  let maxEmbedding = 0;
  const stages = {
    prepare: async (_store: string, file: string) => {
      log.push(`prepare ${file}`);
      await tick(5);
      log.push(`prepared ${file}`);
      if (fail[file] === 'prepare') throw new Error(`${file} is unreadable`);
      return fail[file] === 'skip' ? undefined : { file };
    },
    embed: async ({ file }: { file: string }) => {
      embedding++;
      maxEmbedding = Math.max(maxEmbedding, embedding);
      log.push(`embed ${file}`);
      await tick(40);
      embedding--;
      log.push(`embedded ${file}`);
      if (fail[file] === 'embed') throw new Error('encoder crashed');
      return file.length;
    },
    store: async (_store: string, file: string) => {
      log.push(`store ${file}`);
      await tick(5);
      log.push(`stored ${file}`);
    },
    fail: async (_store: string, file: string, error: unknown) => {
      log.push(`failed ${file}: ${(error as Error).message}`);
    },
  };
  return { log, stages, maxEmbedding: () => maxEmbedding };
}

describe('ingestQueue', () => {
  it('parses the next file while this one embeds and writes this one while the next embeds; one embedding at a time', async () => {
    const { log, stages, maxEmbedding } = recorder();
    const enqueue = ingestQueue(stages);
    await Promise.all(['a', 'b', 'c'].map((file) => enqueue('vs', file)));
    const at = (event: string) => log.indexOf(event);
    // b is parsed before a's embedding ends (the encoder does not wait for b's parse).
    expect(at('prepared b')).toBeLessThan(at('embedded a'));
    // b embeds right after a, before a's write ends (no wait on IndexedDB between files).
    expect(at('embed b')).toBeLessThan(at('stored a'));
    // c is parsed only once b reached the encoder: at most one parsed file waits.
    expect(at('prepare c')).toBeGreaterThan(at('embed b'));
    expect(maxEmbedding()).toBe(1);
    // Each stage keeps the files' order.
    for (const stage of ['prepare', 'embed', 'store'])
      expect(log.filter((event) => event.startsWith(`${stage} `))).toEqual(['a', 'b', 'c'].map((f) => `${stage} ${f}`));
  });

  it('a file that fails or has nothing to embed neither stops the queue nor lets two files embed at once', async () => {
    const { log, stages, maxEmbedding } = recorder({ b: 'prepare', c: 'skip', d: 'embed' });
    const enqueue = ingestQueue(stages);
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map((file) => enqueue('vs', file)));
    expect(log).toContain('failed b: b is unreadable');
    expect(log).toContain('failed d: encoder crashed');
    expect(log.filter((event) => event.startsWith('stored '))).toEqual(['stored a', 'stored e']);
    expect(log.filter((event) => event.startsWith('embed '))).toEqual(['embed a', 'embed d', 'embed e']);
    expect(maxEmbedding()).toBe(1);
  });
});

describe('ingestCalls', () => {
  it('sizes encoder calls by tokens: full-window chunks four a call, short records 32 a call, in order', () => {
    const long = Array.from({ length: 10 }, () => ({ tokens: 509 }));
    expect(ingestCalls(long)).toEqual([
      [0, 4],
      [4, 8],
      [8, 10],
    ]);
    const rows = Array.from({ length: 70 }, () => ({ tokens: 20 }));
    expect(ingestCalls(rows)).toEqual([
      [0, 32],
      [32, 64],
      [64, 70],
    ]);
    // A chunk over the budget goes alone; one without a count takes a whole call.
    expect(ingestCalls([{ tokens: 10 }, { tokens: 5000 }, {}, { tokens: 10 }], { tokens: 100, chunks: 8 })).toEqual([
      [0, 1],
      [1, 2],
      [2, 3],
      [3, 4],
    ]);
    expect(ingestCalls([])).toEqual([]);
  });
});
