import { Wllama } from '@wllama/wllama';
import type { ChatCompletionChunk } from '@wllama/wllama';
import wllamaWasm from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import { createVaani } from '../../src/index';
import { median, order } from '../support/rounds';
import { row } from '../support/rows';
import { streamForced } from '../support/chat-stream';
import { workerMemory } from '../support/worker-memory';
import type { Scenario, ScenarioResult } from '../types';

/**
 * Vaani's chat engine against llama.cpp in the browser (wllama 3.x, its WASM build) on the CPU, at
 * equal threads: Qwen2.5-0.5B's shapes at full depth (24 layers, random weights), Vaani on its q8
 * ONNX file, wllama on the same weights as a Q8_0 GGUF (bench/prepare/chat-wllama.ts). At 2 threads
 * and at 1, each (loaded alone) answers a 128-token chat prompt ROUNDS times with DECODE_TOKENS streamed tokens
 * (every step forced to the token 'a' by a logit bias, so each token is a delta of its own and the
 * random weights never emit half a character): time to first token, prefill speed and decode speed
 * from the first to the last streamed token, measured the same way in this page for both.
 */
const POINTER = '/test/.fixtures/bench-chat-wllama.json';
const DECODE_TOKENS = 17;
const CONTEXT = 128;
const ROUNDS = 3;
const PAUSE_MS = 1000;

interface Timing {
  ttftMs: number;
  decodeMs: number;
  stepsMs: number[];
  promptTokens: number;
  generated: number;
  /** llama.cpp's own timings (wllama only). */
  engine?: { prompt_n: number; predicted_n: number; prompt_per_second: number; predicted_per_second: number };
}

interface Contender {
  name: string;
  run(): Promise<Timing>;
  dispose(): Promise<void>;
}

/** A user message whose chat prompt is exactly `tokens` long: 'a', then ' a' (one token each) repeated. */
const messages = (tokens: number, overhead: number) => [
  { role: 'user' as const, content: `a${' a'.repeat(Math.max(0, tokens - overhead - 1))}` },
];

const timingOf = (start: number, times: number[], promptTokens: number, generated: number): Timing => ({
  ttftMs: times[0]! - start,
  decodeMs: times.at(-1)! - times[0]!,
  stepsMs: times.slice(1).map((time, i) => time - times[i]!),
  promptTokens,
  generated,
});

async function vaani(base: string, threads: number, forced: number, overhead: number): Promise<Contender> {
  const ai = createVaani({ backend: 'wasm', threads, models: { 'chat-v2': { baseURL: base, dtype: 'q8' } } });
  const run = async (max = DECODE_TOKENS): Promise<Timing> => {
    const { start, times, usage } = await streamForced(ai, messages(CONTEXT, overhead), max, forced);
    return timingOf(start, times, usage.prompt_tokens, usage.completion_tokens);
  };
  await run(2);
  return { name: 'vaani', run: () => run(), dispose: async () => ai.dispose() };
}

async function wllama(gguf: string, threads: number, forced: number, overhead: number): Promise<Contender> {
  const engine = new Wllama({ default: wllamaWasm }, { logger: { ...console, debug() {}, log() {}, warn() {} } });
  await engine.loadModel([await (await fetch(gguf)).blob()], { n_ctx: 512, n_threads: threads });
  if (engine.getNumThreads() !== threads)
    throw new Error(`wllama runs ${engine.getNumThreads()} threads, not ${threads}`);
  const run = async (max = DECODE_TOKENS): Promise<Timing> => {
    const times: number[] = [];
    let last: { usage?: { prompt_tokens: number; completion_tokens: number } | null; timings?: Timing['engine'] } = {};
    const start = performance.now();
    await engine.createChatCompletion({
      messages: messages(CONTEXT, overhead),
      temperature: 0,
      max_tokens: max,
      // The same forced token as Vaani's; the prompt is not reused from the previous answer.
      // (wllama's types intersect two logit_bias forms; llama.cpp's server reads this OpenAI one.)
      logit_bias: { [forced]: 100 } as never,
      cache_prompt: false,
      stream: true,
      onData: (chunk: ChatCompletionChunk) => {
        const now = performance.now();
        const content = chunk.choices[0]?.delta?.content;
        for (let i = 0; i < (content?.length ?? 0); i++) times.push(now);
        if (chunk.usage || chunk.timings) last = { usage: chunk.usage ?? last.usage, timings: chunk.timings };
      },
    });
    // Streamed chunks carry llama.cpp's timings (prompt and predicted token counts), not always usage.
    const promptTokens = last.usage?.prompt_tokens ?? last.timings?.prompt_n ?? 0;
    const generated = last.usage?.completion_tokens ?? last.timings?.predicted_n ?? times.length;
    return { ...timingOf(start, times, promptTokens, generated), engine: last.timings };
  };
  await run(2);
  return { name: 'wllama', run: () => run(), dispose: () => engine.exit() };
}

const prefillTps = (t: Timing) => t.promptTokens / (t.ttftMs / 1000);
const decodeTps = (t: Timing) => (t.generated - 1) / (t.decodeMs / 1000);
const WLLAMA = `wllama ${'3.13.0'} (llama.cpp WASM, Q8_0 GGUF of the same weights, same threads)`;

const chatWllama: Scenario = async (env) => {
  const pointer = await fetch(POINTER);
  if (!pointer.ok)
    throw new Error(`${POINTER} is missing: run bench/prepare/chat-wllama.ts first (npm run bench does).`);
  const {
    url: base,
    gguf,
    threads: chosen,
  } = (await pointer.json()) as { url: string; gguf: string; threads?: number[] };
  const vocab = (await (await fetch(`${base}tokenizer.json`)).json()).model.vocab as Record<string, number>;
  const forced = vocab['a']!;
  // ChatML around the user message: <|im_start|>system … <|im_end|>\n<|im_start|>user\n{a} <|im_end|>\n<|im_start|>assistant\n
  const overhead = await templateOverhead(base);
  const sizeOf = async (url: string) => Number((await fetch(url, { method: 'HEAD' })).headers.get('content-length'));
  const onnxBytes =
    (await sizeOf(`${base}onnx/model_quantized.onnx`)) + (await sizeOf(`${base}onnx/model_quantized.onnx_data`));
  const ggufBytes = await sizeOf(gguf);
  const rows: ScenarioResult[] = [];
  for (const threads of chosen ?? [2, 1]) {
    // One engine at a time: llama.cpp's idle worker threads slowed Vaani's steps 2–3× when both
    // were loaded (and the bench should not measure one engine's idle cost on the other).
    const samples: Timing[][] = [[], []];
    const memory: Record<string, number> = {};
    const starts = [() => vaani(base, threads, forced, overhead), () => wllama(gguf, threads, forced, overhead)];
    for (const i of order(2, threads)) {
      env.log(`${threads} threads: loading ${i ? 'wllama' : 'vaani'}`);
      const contender = await starts[i]!();
      for (let round = 0; round < ROUNDS; round++) {
        await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
        const timing = await contender.run();
        if (timing.promptTokens !== CONTEXT || timing.generated !== DECODE_TOKENS)
          throw new Error(
            `${contender.name}: ${timing.promptTokens} prompt / ${timing.generated} generated tokens, not ${CONTEXT} / ${DECODE_TOKENS}`,
          );
        samples[i]!.push(timing);
        env.log(
          `${threads} threads round ${round + 1}: ${contender.name} ttft ${timing.ttftMs.toFixed(0)} ms, ` +
            `decode ${decodeTps(timing).toFixed(2)} tok/s` +
            (timing.engine ? ` (llama.cpp's own: ${timing.engine.predicted_per_second.toFixed(2)})` : ''),
        );
      }
      for (const [key, bytes] of Object.entries((await workerMemory()) ?? {}))
        memory[key] = Math.max(memory[key] ?? 0, bytes);
      await contender.dispose();
    }
    // Each figure from the contender's best round (the one least disturbed by the shared machine).
    const bestOf = (runs: Timing[], figure: (t: Timing) => number, higher: boolean) =>
      runs.map(figure).reduce((a, b) => (higher ? Math.max(a, b) : Math.min(a, b)));
    const [v, w] = samples as [Timing[], Timing[]];
    const mib = (bytes: number) => Math.round(bytes / 2 ** 20);
    const notes = {
      model: `${base} and ${gguf} (Qwen2.5-0.5B shapes: 24 layers, hidden 896, 14/2 heads, vocab 151936, tied; the same random weights)`,
      vaani: { dtype: 'q8', file: 'onnx/model_quantized.onnx', bytes: onnxBytes },
      wllama: { version: '3.13.0', type: 'Q8_0', bytes: ggufBytes },
      backend: 'wasm',
      threads,
      cores: navigator.hardwareConcurrency,
      promptTokens: CONTEXT,
      decodeTokens: DECODE_TOKENS,
      rounds: ROUNDS,
      method:
        'streamed answers in this page, one engine loaded at a time (Vaani first at 2 threads, wllama first at 1): TTFT = first streamed token; decode = (tokens − 1) / first-to-last time; best round of each',
      vaaniMedianStepTps: 1000 / median(v.flatMap((t) => t.stepsMs)),
      llamaCppOwnTimings: w.map((t) => t.engine),
      workersMiB: Object.fromEntries(Object.entries(memory).map(([k, bytes]) => [k, mib(bytes)])),
    };
    const id = `chat.wasm.vs-wllama.t${threads}`;
    const against = (key: string, metric: string, unit: string, figure: (t: Timing) => number, higher: boolean) =>
      row(
        `${id}.${key}`,
        metric,
        unit,
        bestOf(v, figure, higher),
        { name: WLLAMA, value: bestOf(w, figure, higher) },
        higher,
        notes,
      );
    rows.push(
      against(
        'decode',
        `Vaani q8 decode speed at ${CONTEXT} tokens of context, ${threads} WASM threads`,
        'tokens/s',
        decodeTps,
        true,
      ),
      against(
        'prefill',
        `Vaani q8 prefill speed, ${CONTEXT}-token prompt, ${threads} WASM threads`,
        'tokens/s',
        prefillTps,
        true,
      ),
      against(
        'ttft',
        `Vaani q8 time to first token, ${CONTEXT}-token prompt, ${threads} WASM threads`,
        'ms',
        (t) => t.ttftMs,
        false,
      ),
    );
    {
      // wllama's worker runs from a blob: URL (named by a UUID); Vaani's is chat.worker.
      const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-/;
      const wllamaBytes = Object.entries(memory)
        .filter(([key]) => uuid.test(key))
        .reduce((sum, [, bytes]) => sum + bytes, 0);
      if (wllamaBytes && memory['chat.worker'])
        rows.push(
          row(
            `${id}.memory`,
            `memory of Vaani's chat worker with the q8 model loaded, ${threads} WASM threads`,
            'MiB',
            memory['chat.worker'] / 2 ** 20,
            { name: `${WLLAMA}: its worker`, value: wllamaBytes / 2 ** 20 },
            false,
            notes,
          ),
        );
    }
  }
  return rows;
};

/** Prompt tokens of the chat template around a one-token user message ('a'), from transformers.js's tokenizer. */
async function templateOverhead(base: string): Promise<number> {
  const { AutoTokenizer } = await import('@huggingface/transformers');
  const { useLocalTransformers } = await import('../support/transformers-env');
  const folder = new URL(base, location.href);
  useLocalTransformers(new URL('..', folder).pathname, 1);
  const tokenizer = await AutoTokenizer.from_pretrained(folder.pathname.split('/').at(-2)!);
  const text = tokenizer.apply_chat_template([{ role: 'user', content: 'a' }], {
    add_generation_prompt: true,
    tokenize: false,
  }) as string;
  return tokenizer.encode(text, { add_special_tokens: false }).length - 1;
}

export default chatWllama;
