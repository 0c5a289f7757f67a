import { wrap } from 'comlink';
import { wasmThreads } from '../../src/common/backends/ort';
import { createVaani } from '../../src/index';
import type { ChatTransformers } from '../support/chat-transformers.worker';
import { startBare } from '../support/chat-bare';
import { askChat } from '../support/chat-stream';
import { row } from '../support/rows';
import type { BenchEnv, Scenario } from '../types';

/** bench/prepare/chat.ts writes the model (Qwen2.5-0.5B layer sizes, 2 layers, fp32) and this pointer to it. */
const POINTER = '/test/.fixtures/bench-chat.json';
const ROUNDS = 3;
const MAX_TOKENS = 32;
const PROMPT =
  'नमस्ते! Please write a short story about a boat on the Ganga at dawn, with a fisherman, a kingfisher and the morning bells of Varanasi.';
const MESSAGES = [{ role: 'user', content: PROMPT }];

/** One contender: answers with 1 token and with MAX_TOKENS; the difference is pure decoding. */
interface Contender {
  /** Wall time of a 1-token answer (template, tokenizer, prefill, first token) and of a full one. */
  round(): Promise<{ firstMs: number; fullMs: number; promptTokens: number; generated: number }>;
  dispose(): Promise<void>;
}

interface Figures {
  ttftMs: number;
  prefillTps: number;
  decodeTps: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Bytes per realm (page, each worker) and in total; WASM heaps never shrink, so they hold their peak. */
async function memory(): Promise<{ total: number; byScope: Record<string, number> } | null> {
  const measure = (
    performance as Performance & {
      measureUserAgentSpecificMemory?: () => Promise<{
        bytes: number;
        breakdown: { bytes: number; attribution: { url: string; scope: string }[] }[];
      }>;
    }
  ).measureUserAgentSpecificMemory;
  if (!measure || !crossOriginIsolated) return null;
  (globalThis as { gc?: () => void }).gc?.();
  const result = await measure.call(performance);
  const byScope: Record<string, number> = {};
  for (const entry of result.breakdown) {
    for (const where of entry.attribution) {
      const key = `${where.scope}:${new URL(where.url).pathname.split('/').at(-1)}`;
      byScope[key] = (byScope[key] ?? 0) + entry.bytes / entry.attribution.length;
    }
  }
  return { total: result.bytes, byScope };
}

/** A strict JSON Schema for the constrained contender: the answer is an object the grammar keeps valid. */
const STORY_FORMAT = {
  type: 'json_schema',
  json_schema: {
    name: 'story',
    strict: true,
    schema: {
      type: 'object',
      properties: { title: { type: 'string' }, lines: { type: 'array', items: { type: 'string' } } },
      required: ['title', 'lines'],
      additionalProperties: false,
    },
  },
};

async function vaani(
  base: string,
  backend: 'wasm' | 'webgpu',
  maxTokens = MAX_TOKENS,
  extra: Record<string, unknown> = {},
): Promise<Contender> {
  const ai = createVaani({ backend, models: { 'chat-v2': { baseURL: base, dtype: 'fp32' } } });
  const ask = (max: number) => askChat(ai, { messages: MESSAGES, temperature: 0, max_tokens: max, ...extra });
  await ask(2);
  return {
    async round() {
      const first = await ask(1);
      const full = await ask(maxTokens);
      return {
        firstMs: first.ms,
        fullMs: full.ms,
        promptTokens: full.usage.prompt_tokens,
        generated: full.usage.completion_tokens,
      };
    },
    async dispose() {
      ai.dispose();
    },
  };
}

async function bare(base: string, threads: number, promptTokens: number): Promise<Contender> {
  const loop = await startBare({ base, graph: 'onnx/model.onnx', externalData: ['onnx/model.onnx_data'], threads });
  await loop.run({ promptTokens, steps: 2 });
  return {
    async round() {
      const timing = await loop.run({ promptTokens, steps: MAX_TOKENS });
      return {
        firstMs: timing.prefillMs,
        fullMs: timing.prefillMs + timing.decodeMs,
        promptTokens,
        generated: MAX_TOKENS,
      };
    },
    async dispose() {
      loop.terminate();
    },
  };
}

/** transformers.js in its own worker with `threads` WASM threads (undefined: its default). */
async function transformersJs(base: string, threads: number | undefined): Promise<Contender & { threads: number }> {
  const worker = new Worker(new URL('../support/chat-transformers.worker.ts', import.meta.url), { type: 'module' });
  const remote = wrap<ChatTransformers>(worker);
  const used = await remote.load(base, threads);
  const ask = (max: number) => remote.ask(MESSAGES, max);
  await ask(2);
  return {
    threads: used,
    async round() {
      const first = await ask(1);
      const full = await ask(MAX_TOKENS);
      return { firstMs: first.ms, fullMs: full.ms, promptTokens: full.promptTokens, generated: full.generated };
    },
    async dispose() {
      worker.terminate();
    },
  };
}

/** Runs the contenders round-robin (A B C A B C …) so that load on the machine hits them alike. */
async function interleave(contenders: Contender[], env: BenchEnv, rounds = ROUNDS): Promise<Figures[]> {
  const samples: Figures[][] = contenders.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [i, contender] of contenders.entries()) {
      const r = await contender.round();
      samples[i]!.push({
        ttftMs: r.firstMs,
        prefillTps: r.promptTokens / (r.firstMs / 1000),
        decodeTps: (r.generated - 1) / ((r.fullMs - r.firstMs) / 1000),
      });
    }
    env.log(`round ${round + 1}/${rounds} done`);
  }
  return samples.map((runs) => ({
    ttftMs: median(runs.map((r) => r.ttftMs)),
    prefillTps: median(runs.map((r) => r.prefillTps)),
    decodeTps: median(runs.map((r) => r.decodeTps)),
  }));
}

const BARE = 'bare onnxruntime-web loop (same files, options and threads, argmax only)';
const TJS = 'transformers.js generate (its own onnxruntime-web 1.31-dev; its default threads)';
const TJS_SAME = 'transformers.js generate, given the same WASM threads as Vaani';

/**
 * Decode and prefill speed and time to first token: Vaani vs a bare onnxruntime-web loop vs
 * transformers.js, each in its own worker. Vaani and the bare loop use Vaani's default threads;
 * transformers.js runs with its own default and, in a second row, with the same threads.
 */
const chat: Scenario = async (env) => {
  const pointer = await fetch(POINTER);
  if (!pointer.ok) throw new Error(`${POINTER} is missing: run bench/prepare/chat.ts first (npm run bench does).`);
  const { url: base } = (await pointer.json()) as { url: string };
  const threads = wasmThreads();
  const before = await memory();
  const ours = await vaani(base, 'wasm');
  const promptTokens = (await ours.round()).promptTokens;
  const afterVaani = await memory();
  const theirs = await transformersJs(base, undefined);
  const afterAll = await memory();
  const floor = await bare(base, threads, promptTokens);
  const contenders = [ours, floor, theirs];
  const same = theirs.threads === threads ? theirs : await transformersJs(base, threads);
  if (same !== theirs) contenders.push(same);
  const figures = await interleave(contenders, env);
  const [v, b, t] = figures as [Figures, Figures, Figures];
  const s = figures[3] ?? t;
  await ours.dispose();
  await theirs.dispose();
  await same.dispose();

  const notes = {
    model: `${base} (Qwen2.5-0.5B layer sizes, 2 layers, fp32)`,
    backend: 'wasm',
    threads,
    transformersThreads: theirs.threads,
    cores: navigator.hardwareConcurrency,
    promptTokens,
    maxTokens: MAX_TOKENS,
    rounds: ROUNDS,
    method: '1-token answer = time to first token; (N-token − 1-token) time = N−1 decode steps',
  };
  const rows = [
    row('chat.wasm.decode', 'decode speed', 'tokens/s', v.decodeTps, { name: BARE, value: b.decodeTps }, true, notes),
    row(
      'chat.wasm.decode.vs-transformers',
      'decode speed',
      'tokens/s',
      v.decodeTps,
      { name: TJS, value: t.decodeTps },
      true,
      notes,
    ),
    row(
      'chat.wasm.decode.vs-transformers-same-threads',
      'decode speed',
      'tokens/s',
      v.decodeTps,
      { name: TJS_SAME, value: s.decodeTps },
      true,
      notes,
    ),
    row(
      'chat.wasm.prefill',
      'prefill speed (prompt tokens / time to first token)',
      'tokens/s',
      v.prefillTps,
      { name: BARE, value: b.prefillTps },
      true,
      notes,
    ),
    row(
      'chat.wasm.prefill.vs-transformers',
      'prefill speed (prompt tokens / time to first token)',
      'tokens/s',
      v.prefillTps,
      { name: TJS, value: t.prefillTps },
      true,
      notes,
    ),
    row(
      'chat.wasm.prefill.vs-transformers-same-threads',
      'prefill speed (prompt tokens / time to first token)',
      'tokens/s',
      v.prefillTps,
      { name: TJS_SAME, value: s.prefillTps },
      true,
      notes,
    ),
    row('chat.wasm.ttft', 'time to first token', 'ms', v.ttftMs, { name: BARE, value: b.ttftMs }, false, notes),
    row(
      'chat.wasm.ttft.vs-transformers',
      'time to first token',
      'ms',
      v.ttftMs,
      { name: TJS, value: t.ttftMs },
      false,
      notes,
    ),
    row(
      'chat.wasm.ttft.vs-transformers-same-threads',
      'time to first token',
      'ms',
      v.ttftMs,
      { name: TJS_SAME, value: s.ttftMs },
      false,
      notes,
    ),
  ];
  if (before && afterVaani && afterAll) {
    const mib = (bytes: number) => bytes / 2 ** 20;
    rows.push(
      row(
        'chat.wasm.memory',
        'memory the loaded model holds (page + its worker; WASM heap = its peak)',
        'MiB',
        mib(afterVaani.total - before.total),
        { name: TJS, value: mib(afterAll.total - afterVaani.total) },
        false,
        { ...notes, byScope: afterAll.byScope },
      ),
    );
  }
  const cores = Math.min(4, navigator.hardwareConcurrency);
  if (env.isolated && cores !== threads) {
    /** The bare loop as it runs (`floor`) against a variant of it: a decode row and a prefill row. */
    const against = async (id: string, what: string, variant: Contender, name: string) => {
      const [ours, theirs] = (await interleave([floor, variant], env)) as [Figures, Figures];
      await variant.dispose();
      for (const [metric, key] of [
        ['decode', 'decodeTps'],
        ['prefill', 'prefillTps'],
      ] as const)
        rows.push(
          row(
            `${id}.${metric}`,
            `bare-loop ${metric} speed${what}`,
            'tokens/s',
            ours[key],
            { name, value: theirs[key] },
            true,
            notes,
          ),
        );
    };
    await against(
      'chat.wasm.threads',
      ` with ${threads} WASM thread${threads > 1 ? 's' : ''} (the default: half the cores)`,
      await bare(base, cores, promptTokens),
      `the same with ${cores} threads (every core up to 4)`,
    );
  }
  await floor.dispose();
  // Constrained decoding: the same model answering under a JSON-schema grammar (XGrammar mask every
  // step) vs free; the budget leaves 64 tokens for the closing stage, so the first tokens are plain constrained decoding.
  const free = await vaani(base, 'wasm', MAX_TOKENS + 64);
  const constrained = await vaani(base, 'wasm', MAX_TOKENS + 64, { response_format: STORY_FORMAT });
  const [withGrammar, without] = (await interleave([constrained, free], env)) as [Figures, Figures];
  await free.dispose();
  await constrained.dispose();
  rows.push(
    row(
      'chat.wasm.decode.constrained',
      'decode speed under a JSON-schema grammar (response_format json_schema, strict)',
      'tokens/s',
      withGrammar.decodeTps,
      { name: 'Vaani free decode (same model, same budget)', value: without.decodeTps },
      true,
      { ...notes, maxTokens: MAX_TOKENS + 64, goal: '>= 0.9x free decode' },
    ),
  );
  const adapter = await navigator.gpu?.requestAdapter();
  if (adapter) {
    // A software adapter (SwiftShader) is tens of times slower than WASM: fewer tokens, one round, and labelled as such.
    const software = adapter.info.isFallbackAdapter;
    const [maxTokens, rounds] = software ? [8, 1] : [MAX_TOKENS, ROUNDS];
    // Against this run's WASM figures (3 rounds of 32 tokens): 8-token answers on WASM are too short
    // to time decode by difference (one such round gave a negative figure).
    const gpu = await vaani(base, 'webgpu', maxTokens);
    const [g] = (await interleave([gpu], env, rounds)) as [Figures];
    await gpu.dispose();
    const what = software ? ' (software adapter: not a GPU speed)' : '';
    const gpuNotes = {
      ...notes,
      backend: 'webgpu',
      adapter: `${adapter.info.vendor} ${adapter.info.architecture}`.trim(),
      software,
      maxTokens,
      rounds,
    };
    rows.push(
      row(
        'chat.webgpu.decode',
        `decode speed on WebGPU${what}`,
        'tokens/s',
        g.decodeTps,
        { name: 'Vaani on WASM (this run)', value: v.decodeTps },
        true,
        gpuNotes,
      ),
    );
    rows.push(
      row(
        'chat.webgpu.ttft',
        `time to first token on WebGPU${what}`,
        'ms',
        g.ttftMs,
        { name: 'Vaani on WASM (this run)', value: v.ttftMs },
        false,
        gpuNotes,
      ),
    );
  }
  return rows;
};

export default chat;
