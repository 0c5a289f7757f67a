import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Template } from '@huggingface/jinja';
import { Tokenizer } from '@huggingface/tokenizers';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import type { FixtureLocation } from '../fixtures/llm/fixture-dir';
import { ensureDecoderFixture, ensureGgufFixture } from '../fixtures/llm/fixture-dir';
import { bytesToSymbols, byteToChar } from '../fixtures/llm/byte-level';
import { referenceLogits } from '../fixtures/llm/reference-forward';
import type { FixtureDtype } from '../fixtures/llm/spec';
import { tinyLlama, tinyQwen2 } from '../fixtures/llm/spec';
import { transformersReference } from './support/transformers-reference';

type OrtDecoderModule = typeof import('../fixtures/llm/ort-decoder') & {
  writeDecoderFixture: typeof import('../fixtures/llm/generate').writeDecoderFixture;
  MemorySink: typeof import('../fixtures/llm/sink').MemorySink;
};

declare global {
  interface Window {
    llmFixture?: OrtDecoderModule;
    wllama?: { Wllama: typeof import('@wllama/wllama').Wllama; wasm: string };
  }
}

/**
 * fp16 keeps 11 significant bits: a cache rounded to fp16 moves logits (size ~4–16) by up to ~1e-2,
 * and weights rounded to fp16 move them further from the fp32 model's.
 */
const fp16CacheTolerance = 3e-2;
const fp16WeightTolerance = 0.1;
/** WebGPU (here a software adapter) computes transcendental functions and sums less exactly than WASM. */
const webGpuTolerance = 2e-2;

function record(name: string, value: number): void {
  test.info().annotations.push({ type: name, description: value.toExponential(2) });
  console.log(`${test.info().title} — ${name}: ${value.toExponential(2)}`);
}
const prompt = [17, 301, 5, 777, 42, 960, 128, 64];

let llama: FixtureLocation;
let qwen: FixtureLocation;
let chunked: FixtureLocation;
let context: BrowserContext;
/** One page for every onnxruntime-web test: compiling the WASM runtime once keeps the file quick. */
let page: Page;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  llama = await ensureDecoderFixture('tiny-llama', tinyLlama);
  qwen = await ensureDecoderFixture('tiny-qwen2', tinyQwen2);
  chunked = await ensureDecoderFixture('tiny-llama-chunked', {
    ...tinyLlama,
    dtypes: ['fp32'],
    externalDataChunkBytes: 64 * 1024,
  });
  context = await browser.newContext();
  // Vite's HMR socket would reload the page whenever anyone edits a page of the shared test server.
  await context.routeWebSocket(
    () => true,
    () => {},
  );
  page = await context.newPage();
  await page.goto('/test/browser/pages/llm-fixture.html');
  await page.waitForFunction(() => document.title === 'ready');
});

test.afterAll(async () => {
  await context.close();
});

function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i]! - b[i]!));
  return max;
}

function argmaxRows(values: number[], vocab: number): number[] {
  const rows: number[] = [];
  for (let offset = 0; offset < values.length; offset += vocab) {
    const row = values.slice(offset, offset + vocab);
    rows.push(row.indexOf(Math.max(...row)));
  }
  return rows;
}

/** Full-sequence logits and step-by-step cached logits of `ids`, from onnxruntime-web in the page. */
async function fullAndStepwise(url: string, dtype: FixtureDtype, ids: number[], provider: 'wasm' | 'webgpu' = 'wasm') {
  return page.evaluate(
    async ({ url, dtype, ids, provider }) => {
      const decoder = await window.llmFixture!.openFixture(url, dtype, provider);
      const full = Array.from(await decoder.full(ids));
      const stepwise = Array.from(await decoder.stepwise(ids));
      await decoder.release();
      return { full, stepwise, dataFiles: decoder.dataFiles };
    },
    { url, dtype, ids, provider },
  );
}

for (const [name, fixture, options] of [
  ['llama', () => llama, tinyLlama],
  ['qwen2', () => qwen, tinyQwen2],
] as const) {
  test(`${name} fp32 on WASM: computes the reference equations, and cached decoding equals recomputation (< 1e-4)`, async () => {
    const { full, stepwise } = await fullAndStepwise(fixture().url, 'fp32', prompt);
    const reference = referenceLogits(options, prompt).flatMap((row) => Array.from(row));
    record('onnx vs reference equations', maxAbsDiff(full, reference));
    record('cached vs recomputed', maxAbsDiff(stepwise, full));
    expect(maxAbsDiff(full, reference)).toBeLessThan(1e-3);
    expect(maxAbsDiff(stepwise, full)).toBeLessThan(1e-4);
  });

  test(`${name} fp16 on WASM: fp16 cache and logits, cached decoding within ${fp16CacheTolerance} of recomputation`, async () => {
    const fp16 = await fullAndStepwise(fixture().url, 'fp16', prompt);
    const fp32 = await fullAndStepwise(fixture().url, 'fp32', prompt);
    record('fp16 cached vs recomputed', maxAbsDiff(fp16.stepwise, fp16.full));
    record('fp16 vs fp32 model', maxAbsDiff(fp16.full, fp32.full));
    expect(maxAbsDiff(fp16.stepwise, fp16.full)).toBeLessThan(fp16CacheTolerance);
    expect(maxAbsDiff(fp16.full, fp32.full)).toBeLessThan(fp16WeightTolerance);
    expect(argmaxRows(fp16.full, options.vocabSize)).toEqual(argmaxRows(fp32.full, options.vocabSize));
  });
}

for (const [name, fixture] of [
  ['llama', () => llama],
  ['qwen2 (tied embeddings)', () => qwen],
] as const) {
  test(`${name}: different prompts give different greedy continuations, not one repeated token`, async () => {
    const continuations = await page.evaluate(async (url) => {
      const decoder = await window.llmFixture!.openFixture(url, 'fp32');
      const prompts = [[10, 20, 30], [400, 500], [7], [900, 33, 61, 2]];
      const out = [];
      for (const ids of prompts) out.push(await decoder.greedy(ids, 8));
      await decoder.release();
      return out;
    }, fixture().url);
    expect(new Set(continuations.map((tokens) => tokens[0])).size).toBe(continuations.length);
    for (const tokens of continuations) expect(new Set(tokens).size).toBeGreaterThan(1);
    expect(new Set(continuations.flat()).size).toBeGreaterThanOrEqual(continuations.flat().length / 2);
  });
}

test('num_logits_to_keep returns only the last rows (0 keeps all)', async () => {
  const rows = await page.evaluate(
    async ({ url, ids }) => {
      const decoder = await window.llmFixture!.openFixture(url, 'fp32');
      const run = (keep: number) => decoder.forward([ids], [ids.map(() => 1)], [ids.map((_, i) => i)], undefined, keep);
      const all = await run(0);
      const last = await run(1);
      const lastTwo = await run(2);
      await decoder.release();
      return {
        all: Array.from(all.logits),
        allRows: all.rows,
        last: Array.from(last.logits),
        lastRows: last.rows,
        lastTwoRows: lastTwo.rows,
      };
    },
    { url: qwen.url, ids: prompt },
  );
  const vocab = tinyQwen2.vocabSize;
  expect([rows.allRows, rows.lastRows, rows.lastTwoRows]).toEqual([prompt.length, 1, 2]);
  expect(maxAbsDiff(rows.last, rows.all.slice((prompt.length - 1) * vocab))).toBeLessThan(1e-5);
});

test('a left-padded batch gives the same logits as each row alone, before and after a cached step', async () => {
  const result = await page.evaluate(async (url) => {
    const decoder = await window.llmFixture!.openFixture(url, 'fp32');
    const pad = 0;
    const short = [44, 55, 66];
    const long = [11, 22, 33, 44, 55];
    const mask = [
      [0, 0, 1, 1, 1],
      [1, 1, 1, 1, 1],
    ];
    const batch = await decoder.forward([[pad, pad, ...short], long], mask, [
      [0, 0, 0, 1, 2],
      [0, 1, 2, 3, 4],
    ]);
    const next = await decoder.forward(
      [[7], [8]],
      mask.map((row) => [...row, 1]),
      [[3], [5]],
      batch.present,
    );
    const alone = [await decoder.full([...short, 7]), await decoder.full([...long, 8])];
    await decoder.release();
    return {
      batch: Array.from(batch.logits),
      next: Array.from(next.logits),
      alone: alone.map((row) => Array.from(row)),
    };
  }, llama.url);
  const vocab = tinyLlama.vocabSize;
  const row = (values: number[], index: number) => values.slice(index * vocab, (index + 1) * vocab);
  expect(maxAbsDiff(row(result.batch, 4), row(result.alone[0]!, 2))).toBeLessThan(1e-4);
  expect(maxAbsDiff(result.batch.slice(5 * vocab), result.alone[1]!.slice(0, 5 * vocab))).toBeLessThan(1e-4);
  expect(maxAbsDiff(row(result.next, 0), row(result.alone[0]!, 3))).toBeLessThan(1e-4);
  expect(maxAbsDiff(row(result.next, 1), row(result.alone[1]!, 5))).toBeLessThan(1e-4);
});

test('weights split over model.onnx_data, _data_1, … load and give identical logits', async () => {
  const split = await fullAndStepwise(chunked.url, 'fp32', prompt);
  const whole = await fullAndStepwise(llama.url, 'fp32', prompt);
  expect(split.dataFiles.length).toBeGreaterThan(2);
  expect(split.dataFiles.slice(0, 2)).toEqual(['model.onnx_data', 'model.onnx_data_1']);
  expect(maxAbsDiff(split.full, whole.full)).toBe(0);
});

test('the generator also runs in the browser: generated in memory, the same model as the one written by node', async () => {
  const logits = await page.evaluate(
    async ({ options, url, ids }) => {
      const { writeDecoderFixture, MemorySink, openFixture } = window.llmFixture!;
      const sink = new MemorySink();
      await writeDecoderFixture(options, sink);
      const fromMemory = await openFixture(async (path) => sink.files.get(path)!, 'fp16');
      const fromServer = await openFixture(url, 'fp16');
      const result = [Array.from(await fromMemory.full(ids)), Array.from(await fromServer.full(ids))];
      await Promise.all([fromMemory.release(), fromServer.release()]);
      return result;
    },
    { options: tinyQwen2, url: qwen.url, ids: prompt },
  );
  expect(maxAbsDiff(logits[0]!, logits[1]!)).toBe(0);
});

test('the WebGPU execution provider agrees with WASM (when an adapter exists)', async () => {
  const features = await page.evaluate(async () => {
    const adapter = await navigator.gpu?.requestAdapter();
    return adapter ? [...adapter.features] : undefined;
  });
  test.skip(!features, 'no WebGPU adapter in this browser');
  const gpu = await fullAndStepwise(qwen.url, 'fp32', prompt, 'webgpu');
  const cpu = await fullAndStepwise(qwen.url, 'fp32', prompt);
  record('webgpu vs wasm', maxAbsDiff(gpu.full, cpu.full));
  record('webgpu cached vs recomputed', maxAbsDiff(gpu.stepwise, gpu.full));
  expect(maxAbsDiff(gpu.full, cpu.full)).toBeLessThan(webGpuTolerance);
  expect(maxAbsDiff(gpu.stepwise, gpu.full)).toBeLessThan(webGpuTolerance);
  expect(argmaxRows(gpu.full, tinyQwen2.vocabSize)).toEqual(argmaxRows(cpu.full, tinyQwen2.vocabSize));
  if (features!.includes('shader-f16')) {
    const gpu16 = await fullAndStepwise(qwen.url, 'fp16', prompt, 'webgpu');
    record('webgpu fp16 vs wasm fp32', maxAbsDiff(gpu16.full, cpu.full));
    expect(maxAbsDiff(gpu16.full, cpu.full)).toBeLessThan(fp16WeightTolerance + webGpuTolerance);
  }
});

const weatherTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Weather now',
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
  },
};

for (const [dtype, tools] of [
  ['fp32', [weatherTool]],
  ['fp16', undefined],
] as const) {
  const withTools = tools ? ', tools in the template' : '';
  test(`transformers.js (${dtype}, local files${withTools}) greedy-generates the same tokens as a plain onnxruntime-web loop`, async () => {
    const messages = [{ role: 'user', content: 'नमस्ते! வணக்கம் 🙏 আমি ভালো আছি' }];
    const reference = await transformersReference(context, {
      fixtureUrl: qwen.url,
      dtype,
      messages,
      tools: tools && [...tools],
      maxNewTokens: 16,
    });

    const read = async (file: string) => JSON.parse(await readFile(join(qwen.dir, file), 'utf8'));
    const tokenizerConfig = await read('tokenizer_config.json');
    const tokenizer = new Tokenizer(await read('tokenizer.json'), tokenizerConfig);
    const rendered = new Template(tokenizerConfig.chat_template).render({
      messages,
      tools,
      add_generation_prompt: true,
    });
    expect(rendered.includes('<tools>\n{"type": "function"')).toBe(Boolean(tools));
    expect(reference.promptIds).toEqual(tokenizer.encode(rendered, { add_special_tokens: false }).ids);

    const eos: number[] = (await read('generation_config.json')).eos_token_id;
    const ours = await page.evaluate(
      async ({ url, dtype, ids, eos }) => {
        const decoder = await window.llmFixture!.openFixture(url, dtype);
        const tokens = await decoder.greedy(ids, 16, eos);
        await decoder.release();
        return tokens;
      },
      { url: qwen.url, dtype, ids: reference.promptIds, eos },
    );
    expect(reference.tokens.length).toBeGreaterThan(0);
    expect(ours).toEqual(reference.tokens);
    expect(reference.text).toBe(tokenizer.decode(reference.tokens, { skip_special_tokens: false }));
  });
}

/**
 * The longest start of `tokens` whose bytes are whole UTF-8 text (llama.cpp's server refuses to
 * return text that ends inside a character, or has a stray byte), stopping before an end token.
 */
function wholeTextPrefix(tokens: number[], pieces: string[], stop: number[]): number {
  const charToByte = new Map(byteToChar.map((char, byte) => [char, byte]));
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let longest = 0;
  const bytes: number[] = [];
  for (const [i, token] of tokens.entries()) {
    if (stop.includes(token)) break;
    for (const char of pieces[token]!) bytes.push(charToByte.get(char)!);
    try {
      decoder.decode(new Uint8Array(bytes));
      longest = i + 1;
    } catch {
      // ends inside a character (or is not UTF-8): a later token may complete it
    }
  }
  return longest;
}

test('the same weights as GGUF (F32) give llama.cpp (wllama) the greedy tokens onnxruntime-web gives the ONNX file', async () => {
  const gguf = await ensureGgufFixture('tiny-qwen2', tinyQwen2, ['F32']);
  const read = async (file: string) => JSON.parse(await readFile(join(qwen.dir, file), 'utf8'));
  const tokenizerConfig = await read('tokenizer_config.json');
  const tokenizerJson = await read('tokenizer.json');
  const tokenizer = new Tokenizer(tokenizerJson, tokenizerConfig);
  const pieces: string[] = [];
  for (const [piece, id] of Object.entries(tokenizerJson.model.vocab as Record<string, number>)) pieces[id] = piece;
  for (const { id, content } of tokenizerJson.added_tokens) pieces[id] = bytesToSymbols(content).join('');
  const template = new Template(tokenizerConfig.chat_template);
  // llama.cpp tokenizes the text itself, from the GGUF's vocabulary and merges (special tokens included).
  const prompts = [
    'नमस्ते! வணக்கம் 🙏 আমি ভালো আছি',
    'Hello, world: def f(x): return x * 2',
    'a b c',
    'The quick brown fox',
    'print(sum(range(10)))',
    'আমি ভালো আছি',
  ].map((content) => template.render({ messages: [{ role: 'user', content }], add_generation_prompt: true }));
  const ids = prompts.map((text) => tokenizer.encode(text, { add_special_tokens: false }).ids);
  const eos = [qwen.specialTokens.imEnd, qwen.specialTokens.endOfText];
  const ort = await page.evaluate(
    async ({ url, ids, eos }) => {
      const decoder = await window.llmFixture!.openFixture(url, 'fp32');
      const ort = [];
      for (const prompt of ids) ort.push(await decoder.greedy(prompt, 16, eos));
      await decoder.release();
      return ort;
    },
    { url: qwen.url, ids, eos },
  );
  const lengths = ort.map((tokens) => wholeTextPrefix(tokens, pieces, eos));
  const llama = await page.evaluate(
    async ({ ggufUrl, prompts, lengths }) => {
      const { Wllama, wasm } = window.wllama!;
      const wllama = new Wllama({ default: wasm }, { logger: { ...console, debug() {}, log() {} } });
      await wllama.loadModel([await (await fetch(ggufUrl)).blob()], { n_ctx: 256, n_threads: 1 });
      const answers = [];
      for (const [i, prompt] of prompts.entries()) {
        if (!lengths[i]) continue;
        // temperature 0: llama.cpp's greedy sampler.
        const answer = await wllama.createCompletion({ prompt, max_tokens: lengths[i], temperature: 0 });
        answers.push({ text: answer.choices[0]!.text, usage: answer.usage });
      }
      await wllama.exit();
      return answers;
    },
    { ggufUrl: `${gguf.url}${gguf.files.F32}`, prompts, lengths },
  );
  record(
    'greedy tokens compared',
    lengths.reduce((sum, n) => sum + n, 0),
  );
  const compared = prompts.flatMap((_, i) => (lengths[i] ? [i] : []));
  expect(lengths.reduce((sum, n) => sum + n, 0)).toBeGreaterThanOrEqual(24);
  expect(llama.map(({ usage }) => usage.prompt_tokens)).toEqual(compared.map((i) => ids[i]!.length));
  expect(llama.map(({ usage }) => usage.completion_tokens)).toEqual(compared.map((i) => lengths[i]));
  expect(llama.map(({ text }) => text)).toEqual(
    compared.map((i) => tokenizer.decode(ort[i]!.slice(0, lengths[i]), { skip_special_tokens: false })),
  );
});
