import { expect, test } from '@playwright/test';
import { openHarness } from './support/page';

const UPSTREAM = '/shared/fixtures/tiny-random-llama-fp16-genai/';

test('a chat worker that dies mid-stream fails that request; the next request runs on a new worker', async ({
  page,
}) => {
  const errors = await openHarness(page);
  const result = await page.evaluate(async (base) => {
    const workers: Worker[] = [];
    const NativeWorker = window.Worker;
    window.Worker = class extends NativeWorker {
      constructor(url: string | URL, options?: WorkerOptions) {
        super(url, options);
        workers.push(this);
      }
    };
    const ai = window.Vaani.createVaani({ backend: 'wasm', models: { 'chat-v2': { baseURL: base } } });
    const client = new window.OpenAI({
      baseURL: ai.baseURL,
      apiKey: 'k',
      fetch: ai.fetch,
      dangerouslyAllowBrowser: true,
      maxRetries: 0,
    });
    const messages = [{ role: 'user' as const, content: 'नमस्ते' }];

    let chunks = 0;
    let failure = '';
    try {
      const stream = await client.chat.completions.create({
        model: 'chat-v2',
        messages,
        temperature: 0,
        max_tokens: 200,
        stream: true,
      });
      for await (const chunk of stream) {
        if (chunk.choices[0]?.delta.content && ++chunks === 2) {
          const worker = workers.at(-1)!;
          worker.terminate();
          worker.dispatchEvent(new ErrorEvent('error', { message: 'killed by the test' }));
        }
      }
    } catch (error) {
      failure = (error as Error).message;
    }
    const next = await client.chat.completions.create({ model: 'chat-v2', messages, temperature: 0, max_tokens: 4 });
    window.Worker = NativeWorker;
    ai.dispose();
    return {
      chunks,
      failure,
      workers: workers.length,
      next: next.choices[0]!.finish_reason,
      tokens: next.usage?.completion_tokens,
    };
  }, UPSTREAM);
  expect(result.chunks).toBe(2);
  expect(result.failure).toContain('crashed');
  expect(result.workers).toBe(2);
  expect(['stop', 'length']).toContain(result.next);
  expect(result.tokens).toBeGreaterThan(0);
  expect(errors).toEqual([]);
});
