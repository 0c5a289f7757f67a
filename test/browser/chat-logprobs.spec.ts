import { expect, test } from '@playwright/test';
import { openHarness } from './support/page';

const UPSTREAM = '/shared/fixtures/tiny-random-llama-fp16-genai/';

test('logprobs, top_logprobs and logit_bias through the openai SDK on the upstream export, whole and streamed', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const errors = await openHarness(page, '/test/browser/pages/chat.html');
  const result = await page.evaluate(async (base) => {
    const ai = window.Vaani.createVaani({ backend: 'wasm', models: { 'chat-v2': { baseURL: base } } });
    const client = new window.OpenAI({
      baseURL: ai.baseURL,
      apiKey: 'k',
      fetch: ai.fetch,
      dangerouslyAllowBrowser: true,
    });
    const body = {
      model: 'chat-v2',
      messages: [
        { role: 'developer' as const, content: 'Be brief.' },
        { role: 'user' as const, content: 'Name a river.' },
      ],
      temperature: 0,
      max_tokens: 10,
      logprobs: true,
      top_logprobs: 3,
    };
    const whole = await client.chat.completions.create(body);
    const chunks = [];
    for await (const chunk of await client.chat.completions.create({ ...body, stream: true })) chunks.push(chunk);
    // ▁Ganga is not one token here: bias a plain token (id 29871, '▁') up so greedy picks it every time.
    const biased = await client.chat.completions.create({ ...body, logprobs: false, logit_bias: { '29871': 100 } });
    const image = await client.chat.completions
      .create({
        model: 'chat-v2',
        messages: [
          { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AA==' } }] },
        ],
      })
      .catch((e: { status: number; code: string; param: string }) => ({
        status: e.status,
        code: e.code,
        param: e.param,
      }));
    ai.dispose();
    return { whole, chunks, biased, image };
  }, UPSTREAM);
  expect(errors).toEqual([]);
  const { whole, chunks, biased, image } = result;
  const content = whole.choices[0]!.logprobs!.content!;
  expect(content).toHaveLength(whole.usage!.completion_tokens);
  expect(content.map((t) => t.token).join('')).toBe(whole.choices[0]!.message.content);
  for (const token of content) {
    expect(token.logprob).toBeLessThanOrEqual(0);
    expect(token.top_logprobs).toHaveLength(3);
    // Greedy: the chosen token is the likeliest one.
    expect(token.top_logprobs[0]!.logprob).toBeCloseTo(token.logprob, 5);
    expect(token.top_logprobs.reduce((sum, t) => sum + Math.exp(t.logprob), 0)).toBeLessThanOrEqual(1 + 1e-6);
    expect(token.bytes).toEqual(Array.from(new TextEncoder().encode(token.token)));
  }
  const streamed = chunks.flatMap((chunk) => chunk.choices[0]?.logprobs?.content ?? []);
  expect(streamed).toEqual(content);
  expect(biased.choices[0]!.logprobs).toBeNull();
  expect(biased.usage!.completion_tokens).toBe(10);
  expect(biased.choices[0]!.message.content!.trim()).toBe('');
  expect(image).toEqual({ status: 400, code: 'unsupported_content', param: 'messages[0].content[0].type' });
});
