import { describe, expect, it } from 'vitest';
import { opener } from '../../../src/worker/collections/open';
import { EngineError } from '../../../src/protocol/errors';

describe('opener', () => {
  it('opens once, answers storage_unavailable on failure, and tries again on the next call', async () => {
    const names: string[] = [];
    const open = async (name: string) => {
      names.push(name);
      if (names.length === 1) throw new Error('blocked');
      return { name };
    };
    const answer = opener(open, 'memory store');
    const failure = await answer('db', async (c) => c.name).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(EngineError);
    expect(failure).toMatchObject({
      kind: 'unavailable',
      code: 'storage_unavailable',
      message: 'The memory store could not be opened (IndexedDB): blocked',
    });
    expect(await answer('db', async (c) => c.name)).toBe('db');
    expect(await answer('other', async (c) => c.name)).toBe('db');
    expect(names).toEqual(['db', 'db']);
  });
});
