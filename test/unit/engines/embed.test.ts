import { describe, expect, it } from 'vitest';
import { EngineRegistry } from '../../../src/page/engines/_registry';
import { memoryEngines } from '../../../src/page/engines/memory';
import { dataEngines } from '../../../src/page/engines/data';
import { toApiError } from '../../../src/page/api/http/errors';

/** What memory and data answer when no embeddings engine serves their model (the body memory's routes gave). */
const UNAVAILABLE = {
  status: 503,
  body: {
    error: {
      message: "No local embedding engine answers 'embed-v1'.",
      type: 'server_error',
      code: 'model_unavailable',
      param: 'model',
    },
  },
};

const answer = (error: unknown) => {
  const api = toApiError(error);
  return { status: api.status, body: api.body };
};

describe('one place embeds for memory and data', () => {
  const registry = new EngineRegistry();
  const signal = new AbortController().signal;

  it('memory: storing with no embeddings engine is the one 503 model_unavailable, before any worker starts', async () => {
    const memory = memoryEngines({}, registry)[0]!.create('embed-v1');
    const failure = await memory.store([{ text: 'चाय', metadata: {}, scope: {} }], signal).catch((e: unknown) => e);
    expect(answer(failure)).toEqual(UNAVAILABLE);
    const update = await memory.update('mem_x', { text: 'कॉफ़ी' }, signal).catch((e: unknown) => e);
    expect(answer(update)).toEqual(UNAVAILABLE);
    memory.dispose();
  });

  it('data: a semantic search with no embeddings engine is the same 503, naming the model field', async () => {
    const data = dataEngines({}, registry)[0]!.create('embed-v1');
    const failure = await data.search([], { text: 'चाय', mode: 'semantic', limit: 5 }).catch((e: unknown) => e);
    expect(answer(failure)).toEqual(UNAVAILABLE);
    data.dispose();
  });
});
