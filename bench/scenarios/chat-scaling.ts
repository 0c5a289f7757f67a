import { wrap } from 'comlink';
import { wasmThreads } from '../../src/common/backends/ort';
import { createVaani } from '../../src/index';
import type { ChatTransformers } from '../support/chat-transformers.worker';
import { startBare } from '../support/chat-bare';
import { best, median, order, type Timing } from '../support/rounds';
import { row, rowsAgainst } from '../support/rows';
import { askChat, streamForced } from '../support/chat-stream';
import { workerMemory } from '../support/worker-memory';
import type { Scenario, ScenarioResult } from '../types';

/**
 * Chat speed on real shapes: Qwen2.5-0.5B's full depth (24 layers, random weights; written by
 * bench/prepare/chat-scaling.ts) in q4, q8 and fp32. For each dtype and each prompt length, one
 * streamed answer of DECODE_TOKENS tokens per contender — Vaani (/v1/chat/completions, streamed),
 * the bare onnxruntime-web loop and transformers.js, all with the same WASM threads — gives the time
 * to first token (so prefill speed) and the time from the first to the last token (so decode speed at
 * that context). Contenders take turns at each length, so load on the shared machine hits them alike.
 * Then memory per worker, and a roofline: weight bytes a decode step reads ÷ a copy bandwidth
 * measured in this page.
 */
const POINTER = '/test/.fixtures/bench-chat-scaling.json';
/** Tokens per timed answer (the pointer's `tokens` may shorten it for quick runs). */
let DECODE_TOKENS = 17;
const PAUSE_MS = 1000;
/** Sampling settings timed against greedy decoding: OpenAI's defaults, and a common nucleus setting. */
const SAMPLINGS: Record<string, Record<string, number>> = {
  greedy: { temperature: 0 },
  'sampled-default': { temperature: 1, top_p: 1 },
  'sampled-top-p': { temperature: 0.7, top_p: 0.9 },
};
const FILES: Record<Dtype, string> = {
  fp32: 'onnx/model.onnx',
  q4: 'onnx/model_q4.onnx',
  q8: 'onnx/model_quantized.onnx',
};

type Dtype = 'fp32' | 'q4' | 'q8';

interface Pointer {
  url: string;
  /** Set from CHAT_SCALING_DTYPES / CHAT_SCALING_CONTEXTS by the prepare step (for quicker runs). */
  dtypes?: Dtype[];
  contexts?: number[];
  /** CHAT_SCALING_CONTENDERS (e.g. vaani,bare) and CHAT_SCALING_TOKENS: quicker runs while iterating. */
  contenders?: string[];
  tokens?: number;
  /** CHAT_SCALING_THREADS: WASM threads for every contender (default: wasmThreads(), every core up to 4). */
  threads?: number;
}

interface Contender {
  name: string;
  /** Worker script whose memory is this contender's (measureUserAgentSpecificMemory attribution). */
  worker: string;
  run(promptTokens: number): Promise<Timing>;
  /** Vaani only: decode ms per step when sampling with `sampling` (temperature, top_p), from whole answers. */
  sampled?(promptTokens: number, sampling: Record<string, number>): Promise<number>;
  dispose(): Promise<void>;
}

/**
 * Rounds per length: 5 at 128 tokens (a round takes seconds there, and one disturbed by the shared
 * machine is then outvoted), 2 up to 4,096 tokens, so each contender's time to first
 * token is the shorter of two runs after different predecessors (a run right after another
 * contender's can be slowed by that worker's garbage collection or spinning threads on the 2
 * cores); one above (a 16,384-token prompt takes minutes).
 */
const roundsAt = (context: number) => (context <= 128 ? 5 : context <= 4096 ? 2 : 1);

/** Intervals between consecutive token times. */
const intervals = (times: number[]) => times.slice(1).map((time, i) => time - times[i]!);
const prefillTps = (t: Timing) => t.promptTokens / (t.ttftMs / 1000);
/**
 * Decode speed from the median step: on the shared 2-core machine a step now and then takes twice as
 * long (other work, GC), and one such step in a 16-step answer moved the first-to-last figure by 6 %.
 */
const decodeTps = (t: Timing) => 1000 / median(t.stepsMs);
/** The first-to-last figure (kept in the rows' notes). */
const spanTps = (t: Timing) => (t.generated - 1) / (t.decodeMs / 1000);

/** A user message whose chat prompt is exactly `tokens` long: 'a', then ' a' (one token each) repeated. */
const message = (tokens: number, overhead: number) => [
  { role: 'user', content: `a${' a'.repeat(Math.max(0, tokens - overhead - 1))}` },
];

async function vaani(
  base: string,
  dtype: Dtype,
  threads: number,
  forced: number,
  overhead: number,
): Promise<Contender> {
  const ai = createVaani({ backend: 'wasm', threads, models: { 'chat-v2': { baseURL: base, dtype } } });
  const run = async (promptTokens: number, max = DECODE_TOKENS): Promise<Timing> => {
    const { start, times, usage } = await streamForced(ai, message(promptTokens, overhead), max, forced);
    if (times.length !== usage.completion_tokens)
      throw new Error(`vaani: ${times.length} streamed tokens for ${usage.completion_tokens} generated`);
    return {
      ttftMs: times[0]! - start,
      decodeMs: times.at(-1)! - times[0]!,
      stepsMs: intervals(times),
      promptTokens: usage.prompt_tokens,
      generated: usage.completion_tokens,
    };
  };
  await run(16, 2);
  /** A whole (not streamed) answer of `max` tokens: sampled tokens may end inside a character, so deltas cannot count them. */
  const whole = async (promptTokens: number, max: number, sampling: Record<string, number>) => {
    const { ms, usage } = await askChat(ai, {
      messages: message(promptTokens, overhead),
      max_tokens: max,
      ...sampling,
    });
    return { ms, tokens: usage.completion_tokens };
  };
  const sampled = async (promptTokens: number, sampling: Record<string, number>) => {
    const first = await whole(promptTokens, 1, sampling);
    const full = await whole(promptTokens, DECODE_TOKENS, sampling);
    return (full.ms - first.ms) / (full.tokens - 1);
  };
  return { name: 'vaani', worker: 'chat.worker', run, sampled, dispose: async () => ai.dispose() };
}

/** The bare loop's onnxruntime-web heap: once its session started, and after its last run. */
const heap = { loaded: 0, peak: 0 };

async function bare(base: string, dtype: Dtype, threads: number): Promise<Contender> {
  const loop = await startBare({ base, graph: FILES[dtype], externalData: [`${FILES[dtype]}_data`], threads });
  heap.loaded = loop.heapBytes;
  await loop.run({ promptTokens: 16, steps: 2 });
  return {
    name: 'bare',
    worker: 'chat-bare.worker',
    async run(promptTokens) {
      const timing = await loop.run({ promptTokens, steps: DECODE_TOKENS });
      heap.peak = timing.heapBytes;
      return {
        ttftMs: timing.prefillMs,
        decodeMs: timing.decodeMs,
        stepsMs: timing.stepsMs,
        promptTokens,
        generated: DECODE_TOKENS,
      };
    },
    dispose: async () => loop.terminate(),
  };
}

async function transformersJs(base: string, dtype: Dtype, threads: number, overhead: number): Promise<Contender> {
  const worker = new Worker(new URL('../support/chat-transformers.worker.ts', import.meta.url), { type: 'module' });
  const remote = wrap<ChatTransformers>(worker);
  const used = await remote.load(base, threads, dtype);
  if (used !== threads) throw new Error(`transformers.js runs ${used} threads, not ${threads}`);
  await remote.timed(message(16, overhead), 2);
  return {
    name: 'transformers.js',
    worker: 'chat-transformers.worker',
    async run(promptTokens) {
      const timing = await remote.timed(message(promptTokens, overhead), DECODE_TOKENS);
      // min_new_tokens holds it to every token; a shorter answer would make its steps incomparable.
      if (timing.generated !== DECODE_TOKENS)
        throw new Error(`transformers.js: ${timing.generated} tokens for ${DECODE_TOKENS} asked`);
      return timing;
    },
    dispose: async () => worker.terminate(),
  };
}

/** Bytes per second a large TypedArray copy moves (read + write), best of five, single thread. */
function copyBandwidth(): number {
  const size = 256 * 2 ** 20;
  const from = new Uint8Array(size).fill(1);
  const to = new Uint8Array(size);
  let best = Infinity;
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    to.set(from);
    best = Math.min(best, performance.now() - start);
  }
  return (2 * size) / (best / 1000);
}

const sizeOf = async (url: string) => Number((await fetch(url, { method: 'HEAD' })).headers.get('content-length'));

const BARE = 'bare onnxruntime-web loop (same file, options and threads, argmax only)';
const TJS = 'transformers.js generate (same dtype, same WASM threads)';

const chatScaling: Scenario = async (env) => {
  const pointer = await fetch(POINTER);
  if (!pointer.ok)
    throw new Error(`${POINTER} is missing: run bench/prepare/chat-scaling.ts first (npm run bench does).`);
  const {
    url: base,
    dtypes = ['q4', 'q8', 'fp32'],
    contexts = [128, 1024, 2048, 4096],
    contenders: chosen = ['vaani', 'bare', 'transformers.js'],
    tokens = 17,
    threads: requested,
  } = (await pointer.json()) as Pointer;
  DECODE_TOKENS = tokens;
  /** A narrowed run (fewer contenders or tokens) skips the sampling rows, which repeat whole answers. */
  const quick = chosen.length < 3 || tokens !== 17 || requested !== undefined;
  const threads = wasmThreads(requested);
  const config = await (await fetch(`${base}config.json`)).json();
  const vocab = (await (await fetch(`${base}tokenizer.json`)).json()).model.vocab as Record<string, number>;
  const forced = vocab['a']!;
  // Chat template tokens around the user message, the same for every length (checked against usage below).
  const overhead = await templateOverhead(base);
  const bandwidth = copyBandwidth();
  const cacheBytesPerToken = config.num_hidden_layers * 2 * config.num_key_value_heads * config.head_dim * 4;
  const rows: ScenarioResult[] = [];
  for (const dtype of dtypes) {
    const weightBytes = (await sizeOf(`${base}${FILES[dtype]}`)) + (await sizeOf(`${base}${FILES[dtype]}_data`));
    const notes = {
      model: `${base} (Qwen2.5-0.5B shapes: 24 layers, hidden 896, 14/2 heads, vocab 151936, tied; random weights)`,
      dtype,
      file: FILES[dtype],
      weightBytes,
      backend: 'wasm',
      threads,
      cores: navigator.hardwareConcurrency,
      decodeTokens: DECODE_TOKENS,
      rounds: '5 at 128 tokens (rotating who goes first), 2 up to 4,096, 1 above',
      method:
        'streamed answers, contenders in turn, each round starting one later: TTFT = first token (the shortest of the rounds); decode = 1000 / median step ms of the round with the lowest median (the median over all rounds in pooledMedianStepMs, the first-to-last figure in firstToLastTps)',
    };
    env.log(`${dtype}: loading`);
    // Always three slots (Vaani, bare loop, transformers.js); one left out of a quick run stays undefined.
    const contenders: (Contender | undefined)[] = [
      await vaani(base, dtype, threads, forced, overhead),
      chosen.includes('bare') ? await bare(base, dtype, threads) : undefined,
      chosen.includes('transformers.js') ? await transformersJs(base, dtype, threads, overhead) : undefined,
    ];
    const results = new Map<number, (Timing | undefined)[]>();
    /** A contender that failed at a length (e.g. out of WASM memory): its message, kept in the rows' notes. */
    const failures = new Map<number, Record<string, string>>();
    // A first answer of the shortest length, not timed: the first run at a new size is slower (buffers grow).
    for (const contender of contenders) await contender?.run(contexts[0]!);
    let turn = 0;
    for (const context of contexts) {
      const samples: Timing[][] = contenders.map(() => []);
      const failed: Record<string, string> = {};
      for (let round = 0; round < roundsAt(context); round++) {
        for (const i of order(contenders.length, turn++)) {
          const contender = contenders[i];
          if (!contender || failed[contender.name]) continue;
          // The previous contender's onnxruntime threads spin for a while after its last run: let them settle.
          await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
          try {
            const timing = await contender.run(context);
            samples[i]!.push(timing);
            env.log(
              `${dtype} ctx ${context} round ${round + 1}: ${contender.name} ttft ${timing.ttftMs.toFixed(0)} ms, ` +
                `decode ${decodeTps(timing).toFixed(2)} tok/s`,
            );
          } catch (error) {
            failed[contender.name] = error instanceof Error ? error.message : String(error);
            env.log(`${dtype} ctx ${context}: ${contender.name} failed: ${failed[contender.name]}`);
          }
        }
      }
      const timings = samples.map((runs) => (runs.length ? best(runs) : undefined));
      for (const timing of timings)
        if (timing && timing.promptTokens !== context)
          throw new Error(`a prompt of ${context} tokens came out as ${timing.promptTokens}`);
      results.set(context, timings);
      failures.set(context, failed);
      env.log(
        `${dtype} ctx ${context}: decode ${timings.map((x) => (x ? decodeTps(x).toFixed(2) : '—')).join(' / ')} tok/s, ` +
          `ttft ${timings.map((x) => (x ? x.ttftMs.toFixed(0) : '—')).join(' / ')} ms (vaani / bare / transformers.js)`,
      );
    }
    // Sampling cost per token on the full vocabulary (q8 only: the others' steps take too long to repeat).
    const sampledMs: Record<string, number> = {};
    if (dtype === 'q8' && !quick) {
      for (const [name, sampling] of Object.entries(SAMPLINGS)) {
        const runs: number[] = [];
        for (let round = 0; round < 2; round++) {
          await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
          runs.push(await contenders[0]!.sampled!(contexts[0]!, sampling));
        }
        sampledMs[name] = Math.min(...runs);
        env.log(`${dtype} sampled ${name}: ${sampledMs[name]!.toFixed(1)} ms per step`);
      }
    }
    const memory = await workerMemory();
    for (const contender of contenders) await contender?.dispose();

    for (const [context, [v, b, t]] of results) {
      if (!v) continue;
      const stepMs = (x: Timing | undefined) => x && x.decodeMs / (x.generated - 1);
      const at = {
        ...notes,
        promptTokens: context,
        stepMs: { vaani: stepMs(v), bare: stepMs(b), transformersJs: stepMs(t) },
        medianStepMs: {
          vaani: median(v.stepsMs),
          bare: b && median(b.stepsMs),
          transformersJs: t && median(t.stepsMs),
        },
        pooledMedianStepMs: {
          vaani: median(v.pooledStepsMs ?? v.stepsMs),
          bare: b && median(b.pooledStepsMs ?? b.stepsMs),
          transformersJs: t && median(t.pooledStepsMs ?? t.stepsMs),
        },
        firstToLastTps: { vaani: spanTps(v), bare: b && spanTps(b), transformersJs: t && spanTps(t) },
        failed: failures.get(context),
      };
      const id = `chat-scaling.${dtype}`;
      /** The Vaani figure against the bare loop (`id`) and against transformers.js (`id.vs-transformers`). */
      const both = (key: string, metric: string, unit: string, figure: (x: Timing) => number, higher: boolean) =>
        rowsAgainst(`${id}.${key}`, metric, unit, figure(v), higher, at, [
          { suffix: '', name: BARE, value: b && figure(b) },
          { suffix: '.vs-transformers', name: TJS, value: t && figure(t) },
        ]);
      rows.push(
        ...both(`decode.ctx${context}`, `decode speed at ${context} tokens of context`, 'tokens/s', decodeTps, true),
        ...both(
          `prefill.p${context}`,
          `prefill speed, ${context}-token prompt (prompt / time to first token)`,
          'tokens/s',
          prefillTps,
          true,
        ),
        ...both(`ttft.p${context}`, `time to first token, ${context}-token prompt`, 'ms', (x) => x.ttftMs, false),
      );
    }
    for (const [name, ms] of Object.entries(sampledMs)) {
      if (name === 'greedy') continue;
      rows.push(
        row(
          `chat-scaling.${dtype}.decode.${name}`,
          `decode speed at ${contexts[0]} tokens, sampling (${JSON.stringify(SAMPLINGS[name])}), whole answers`,
          'tokens/s',
          1000 / ms,
          { name: 'Vaani greedy, whole answers (same method)', value: 1000 / sampledMs.greedy! },
          true,
          { ...notes, stepMs: { sampled: ms, greedy: sampledMs.greedy } },
        ),
      );
    }
    const shortest = results.get(contexts[0]!)?.[0];
    const longest = results.get(contexts.at(-1)!)?.[0];
    if (shortest && longest && contexts.length > 1)
      rows.push(
        row(
          `chat-scaling.${dtype}.decode.long-vs-short`,
          `Vaani decode speed at ${contexts.at(-1)} tokens of context`,
          'tokens/s',
          decodeTps(longest),
          { name: `Vaani at ${contexts[0]} tokens (goal ≥ 0.7×)`, value: decodeTps(shortest) },
          true,
          notes,
        ),
      );
    if (shortest) {
      // Each decode step reads every weight once (the tied embedding as the output layer; q8 its folded transpose).
      const roofline = bandwidth / (weightBytes + cacheBytesPerToken * contexts[0]!);
      rows.push(
        row(
          `chat-scaling.${dtype}.roofline`,
          `Vaani decode speed at ${contexts[0]} tokens vs the memory-bandwidth limit (bytes read per token ÷ copy bandwidth)`,
          'tokens/s',
          decodeTps(shortest),
          { name: 'copy bandwidth ÷ (weight + KV cache bytes per token)', value: roofline },
          true,
          {
            ...notes,
            copyBandwidthGBs: bandwidth / 1e9,
            bytesPerToken: weightBytes + cacheBytesPerToken * contexts[0]!,
          },
        ),
      );
    }
    if (memory) {
      const mib = (bytes: number) => bytes / 2 ** 20;
      const cache = cacheBytesPerToken * (contexts.at(-1)! + DECODE_TOKENS);
      rows.push(
        row(
          `chat-scaling.${dtype}.memory`,
          `peak memory of Vaani's chat worker after a ${contexts.at(-1)}-token context`,
          'MiB',
          mib(memory['chat.worker'] ?? 0),
          { name: 'weight files + KV cache (goal ≤ 1.05×)', value: mib(weightBytes + cache) },
          false,
          {
            ...notes,
            workersMiB: Object.fromEntries(Object.entries(memory).map(([k, v]) => [k, Math.round(mib(v))])),
            // The same onnxruntime-web with the same file: its WASM heap once the session started and at the end.
            bareHeapMiB: heap.loaded ? { loaded: Math.round(mib(heap.loaded)), end: Math.round(mib(heap.peak)) } : null,
          },
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

export default chatScaling;
