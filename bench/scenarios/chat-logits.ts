import { wrap } from 'comlink';
import { wasmThreads } from '../../src/common/backends/ort';
import { createVaani } from '../../src/index';
import { startBare } from '../support/chat-bare';
import { askChat } from '../support/chat-stream';
import type { ChatTransformers } from '../support/chat-transformers.worker';
import { median, order } from '../support/rounds';
import { row } from '../support/rows';
import { workerMemory } from '../support/worker-memory';
import type { Scenario, ScenarioResult } from '../types';

/**
 * Prefill on an export that computes logits at every position (optimum's, Olive's and
 * onnxruntime-genai's exports have no `num_logits_to_keep`), where Vaani adds the input at load
 * (src/worker/chat/logits-to-keep.ts): Qwen2.5-0.5B's shapes at full depth (24 layers, random
 * weights, q8), a short chat prompt and a long one, on WASM at Vaani's default threads. Against the
 * bare onnxruntime-web loop on the same file as it is, the bare loop on the same weights exported
 * with the input (what the edit should reach), and transformers.js on the same file.
 */
const POINTER = '/test/.fixtures/bench-chat-logits.json';
const ROUNDS = 3;
const SHORT =
  'नमस्ते! Please write a short story about a boat on the Ganga at dawn, with a fisherman, a kingfisher and the morning bells of Varanasi.';
/** A user message of about 500 tokens: ' a' is one token. */
const LONG = `a${' a'.repeat(499)}`;

interface Contender {
  /** Time to the first token of a 1-token answer to `text`, and the prompt's tokens. */
  first(text: string, promptTokens: number): Promise<{ ms: number; promptTokens: number }>;
  dispose(): Promise<void>;
}

async function vaani(base: string): Promise<Contender> {
  const ai = createVaani({ backend: 'wasm', models: { 'chat-v2': { baseURL: base, dtype: 'q8' } } });
  const first = async (text: string) => {
    const { ms, usage } = await askChat(ai, {
      messages: [{ role: 'user', content: text }],
      temperature: 0,
      max_tokens: 1,
    });
    return { ms, promptTokens: usage.prompt_tokens };
  };
  await first('hello');
  return { first, dispose: async () => ai.dispose() };
}

async function bare(base: string, threads: number): Promise<Contender & { heap(): Promise<number> }> {
  const graph = 'onnx/model_quantized.onnx';
  const loop = await startBare({ base, graph, externalData: [`${graph}_data`], threads });
  let heapBytes = 0;
  const first = async (_: string, promptTokens: number) => {
    const timing = await loop.run({ promptTokens, steps: 1 });
    heapBytes = timing.heapBytes;
    return { ms: timing.prefillMs, promptTokens };
  };
  await first('', 8);
  return { first, heap: async () => heapBytes, dispose: async () => loop.terminate() };
}

async function transformersJs(base: string, threads: number): Promise<Contender> {
  const worker = new Worker(new URL('../support/chat-transformers.worker.ts', import.meta.url), { type: 'module' });
  const remote = wrap<ChatTransformers>(worker);
  await remote.load(base, threads, 'q8');
  const first = async (text: string) => {
    const answer = await remote.ask([{ role: 'user', content: text }], 1);
    return { ms: answer.ms, promptTokens: answer.promptTokens };
  };
  await first('hello');
  return { first, dispose: async () => worker.terminate() };
}

const chatLogits: Scenario = async (env) => {
  const pointer = await fetch(POINTER);
  if (!pointer.ok)
    throw new Error(`${POINTER} is missing: run bench/prepare/chat-logits.ts first (npm run bench does).`);
  const { every, last } = (await pointer.json()) as { every: string; last: string };
  const threads = wasmThreads();
  const ours = await vaani(every);
  const asShipped = await bare(every, threads);
  const withInput = await bare(last, threads);
  const theirs = await transformersJs(every, threads);
  const contenders = [ours, asShipped, withInput, theirs];
  const prompts = { short: SHORT, long: LONG };
  // Vaani's template gives the prompt's length, which the bare loops then run.
  const lengths = {
    short: (await ours.first(SHORT, 0)).promptTokens,
    long: (await ours.first(LONG, 0)).promptTokens,
  };
  const samples = new Map<string, number[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const k of order(contenders.length, round))
      for (const prompt of ['short', 'long'] as const) {
        const { ms, promptTokens } = await contenders[k]!.first(prompts[prompt], lengths[prompt]);
        const key = `${k}:${prompt}`;
        samples.set(key, [...(samples.get(key) ?? []), promptTokens / (ms / 1000)]);
      }
    env.log(`round ${round + 1}/${ROUNDS} done`);
  }
  const memory = await workerMemory();
  const heaps = { asShipped: await asShipped.heap(), withInput: await withInput.heap() };
  await Promise.all(contenders.map((c) => c.dispose()));
  const speed = (k: number, prompt: 'short' | 'long') => median(samples.get(`${k}:${prompt}`)!);

  const notes = {
    model: `${every} (Qwen2.5-0.5B shapes, 24 layers, q8, logits at every position)`,
    withInput: `${last} (the same weights with num_logits_to_keep)`,
    backend: 'wasm',
    threads,
    cores: navigator.hardwareConcurrency,
    promptTokens: lengths,
    rounds: ROUNDS,
    method: 'prefill speed = prompt tokens / time to the first token of a 1-token answer; median of the rounds',
  };
  const rows: ScenarioResult[] = [];
  const baselines = [
    ['', "bare onnxruntime-web loop on the same file as it is (every position's logits)", 1],
    ['.vs-input', 'bare loop on the same weights exported with num_logits_to_keep', 2],
    ['.vs-transformers', 'transformers.js generate on the same file, same threads', 3],
  ] as const;
  for (const prompt of ['short', 'long'] as const)
    for (const [suffix, name, k] of baselines)
      rows.push(
        row(
          `chat-logits.wasm.prefill.${prompt}${suffix}`,
          `prefill speed, ${lengths[prompt]}-token prompt, export without num_logits_to_keep`,
          'tokens/s',
          speed(0, prompt),
          { name, value: speed(k, prompt) },
          true,
          notes,
        ),
      );
  const mib = (bytes: number) => bytes / 2 ** 20;
  rows.push(
    row(
      'chat-logits.wasm.heap',
      `bare loop's WASM heap after the ${lengths.long}-token prompt (it never shrinks: its peak), with num_logits_to_keep`,
      'MiB',
      mib(heaps.withInput),
      { name: 'the same loop on the file without the input', value: mib(heaps.asShipped) },
      false,
      { ...notes, chatWorkerMiB: memory ? mib(memory['chat.worker'] ?? 0) : null },
    ),
  );
  return rows;
};

export default chatLogits;
