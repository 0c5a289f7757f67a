/* eslint-disable @typescript-eslint/no-explicit-any -- JSON reports passed between processes, and Dawn's untyped binding */
/**
 * LLM decoding on WebGPU (Dawn) through onnxruntime-web in Node, with Vaani's own code: the
 * Qwen2.5-0.5B-shaped random-weight fixture from Vaani's generator, sessions from Vaani's
 * `createSession` (on WebGPU: outputs as 'gpu-buffer', so the KV cache stays on the GPU), Vaani's
 * `KvDecoder` + greedy `Sampler` (with generate()'s per-token yield) against a bare session.run loop
 * on the same session; the same on the WASM EP for the WebGPU/WASM ratio.
 *
 * Modes (argv[2]):
 *   (none)              the orchestrator: probe, generate, then one child process per group
 *   probe <json>        adapter info from Dawn (+ a few micro-timings)
 *   generate <json>     writes one dtype's fixture
 *   child <json>        one group: an onnxruntime-web build, an EP, a dtype, prompt lengths
 * Results: $OUT/gpu-bench.json (rewritten after every step) and $OUT/gpu-bench.log ($OUT: ./gpu-out if unset).
 * `@project/...` imports are the project's own files (PROJECT_DIR of make-bundle.sh), bundled by build.mjs.
 * Settings (env): BENCH_LAYERS 24 (2 with BENCH_TINY=1), BENCH_DTYPES q4,fp16,fp32, BENCH_PROMPTS 128,1024, BENCH_NEW_TOKENS 64,
 * BENCH_GROUPS (ids, in order), BENCH_WASM_THREADS (default: every core), BENCH_GPU_THREADS (default:
 * Vaani's wasmThreads(), 1 in Node), BENCH_BUDGET_S 360, BENCH_GROUP_CAP_S 150, BENCH_FIXTURES,
 * BENCH_DAWN_OPTS (space-separated dawn.node options), BENCH_COMPAT=1, BENCH_ROUNDS_SHORT 3, BENCH_ROUNDS_LONG 2,
 * BENCH_WASM_PROMPTS 128, BENCH_WASM_EXTRA_PROMPTS 1024, BENCH_PROBE_ATTEMPTS (names), BENCH_TINY=1 (tiny fixture),
 * BENCH_NVIDIA_ICD / BENCH_NVIDIA_EGL (the driver's Vulkan ICD and EGL vendor JSON files; run.sh finds them).
 */
import { spawn, execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSession, wasmThreads } from '../../src/common/backends/ort';
import type { Ort, OrtSession } from '../../src/common/backends/ort';
import { probeWebGpu } from '../../src/common/backends/webgpu';
import { WEBGPU_F16_DTYPES, WEBGPU_F32_DTYPES, WASM_DTYPES } from '../../src/common/backends/plan';
import { readConfig } from '../../src/worker/chat/config';
import type { LlmConfig } from '../../src/worker/chat/config';
import { type CachedDecoder, KvDecoder, layoutOf, PREFILL_CHUNK } from '../../src/worker/chat/decoder';
import { CapturedDecoder } from '../../src/worker/chat/captured';
import { graphOperators } from '../../src/worker/chat/graph-ops';
import { installOutputPool } from '../../src/worker/chat/output-pool';
import { Sampler } from '../../src/worker/chat/sampler';
import { yieldToEvents } from '../../src/protocol/cancel';
import { ensureDecoderFixture } from '../../test/fixtures/llm/fixture-dir';
import { onnxFileName, qwen25HalfBillionShape, tinyQwen2 } from '../../test/fixtures/llm/spec';
import type { FixtureDtype } from '../../test/fixtures/llm/spec';
import { createCaptureSession } from './capture';
import { FAMILY_MODELS, familyMemory } from './families';
import { lengthsAsInputs } from '../../src/worker/chat/lengths-as-inputs';
import { appDir, gpuCalls, importOrt, installDawn, installFileFetch, writeBufferStats } from './node-env';
import type { OrtBuildName } from './node-env';

/** Filled in by build.mjs (esbuild `define`): versions and the project's commit. */
declare const __BUNDLE_INFO__: {
  projectCommit: string;
  projectDirty: boolean;
  builtAt: string;
  versions: Record<string, string>;
};
const bundleInfo = typeof __BUNDLE_INFO__ === 'undefined' ? undefined : __BUNDLE_INFO__;

const started = Date.now();
const env = process.env;
const num = (name: string, fallback: number) => (env[name] ? Number(env[name]) : fallback);
const list = (name: string, fallback: string) =>
  (env[name] ?? fallback)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const outDir = env.OUT || join(process.cwd(), 'gpu-out');
const workDir = env.BENCH_WORK || '/tmp/vaani-gpu-bench';
const seconds = (ms: number) => Math.round(ms / 100) / 10;
const round = (x: number, digits = 1) => (Number.isFinite(x) ? Math.round(x * 10 ** digits) / 10 ** digits : x);
const median = (xs: number[]) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const quantile = (xs: number[], q: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.round(q * (s.length - 1))))]!;
};
const cut = (text: string, n = 2000) => (text.length > n ? `${text.slice(0, n)}… (${text.length} chars)` : text);
function describeError(error: unknown) {
  if (error instanceof Error)
    return {
      message: cut(error.message),
      stack: (error.stack ?? '')
        .split('\n')
        .slice(1, 6)
        .map((line) => cut(line.trim(), 300)),
    };
  return { message: cut(String(error)) };
}

// ---------------------------------------------------------------------------------------------
// Logging (the orchestrator owns gpu-bench.log; children print, the orchestrator prefixes and logs)

let logFile: string | undefined;
function log(line: string): void {
  const text = cut(line, 4000);
  process.stdout.write(`${text}\n`);
  if (logFile) appendFileSync(logFile, `${text}\n`);
}

// ---------------------------------------------------------------------------------------------
// The model

interface ModelSpec {
  layers: number;
  tiny: boolean;
}
/**
 * One export of the model: a dtype, and its attention as standard ONNX ops (as optimum exports it)
 * or fused into com.microsoft GroupQueryAttention (as onnxruntime-genai's builder does): far fewer
 * kernels a step.
 */
interface Variant {
  dtype: FixtureDtype;
  gqa: boolean;
  /** For graph capture (`-static`): no `num_logits_to_keep`; the capture group takes GQA's lengths as inputs (src/worker/chat/lengths-as-inputs.ts). */
  fixed: boolean;
}
const variantKey = (v: Variant) => `${v.dtype}${v.gqa ? '-gqa' : ''}${v.fixed ? '-static' : ''}`;
const parseVariant = (key: string): Variant => ({
  dtype: key.split('-')[0] as FixtureDtype,
  gqa: key.includes('-gqa'),
  fixed: key.endsWith('-static'),
});
const modelOptions = (spec: ModelSpec, v: Variant) => ({
  ...(spec.tiny ? { ...tinyQwen2, headDim: 16 } : qwen25HalfBillionShape(spec.layers)),
  ...(spec.tiny ? { numHiddenLayers: spec.layers } : {}),
  ...(v.gqa ? { attention: 'group-query' as const } : {}),
  ...(v.fixed ? { numLogitsToKeep: false } : {}),
  dtypes: [v.dtype],
});
const modelName = (spec: ModelSpec, v: Variant) =>
  `${spec.tiny ? 'tiny-qwen2' : 'qwen2.5-0.5b-shape'}-${spec.layers}l-${variantKey(v)}`;

async function generateMode(task: { spec: ModelSpec; variant: Variant; key?: string; root: string }): Promise<void> {
  const t0 = performance.now();
  if (task.key?.startsWith('mem-')) {
    const family = FAMILY_MODELS[task.key.slice(4)];
    if (!family) throw new Error(`no family model ${task.key} (${Object.keys(FAMILY_MODELS).join(', ')})`);
    const exported = await family.write(task.root, task.spec.tiny);
    const files = exported.graphs.map((file) => ({ file, bytes: statSync(join(exported.dir, file)).size }));
    process.stdout.write(
      `${JSON.stringify({ result: { dir: exported.dir, graphs: exported.graphs, external: exported.external, variant: task.key, seconds: seconds(performance.now() - t0), files } })}\n`,
    );
    return;
  }
  const fixture = await ensureDecoderFixture(
    modelName(task.spec, task.variant),
    modelOptions(task.spec, task.variant),
    task.root,
  );
  const files = fixture.files
    .filter((file) => file.startsWith('onnx/'))
    .map((file) => ({ file, bytes: statSync(join(fixture.dir, file)).size }));
  process.stdout.write(
    `${JSON.stringify({ result: { dir: fixture.dir, variant: variantKey(task.variant), seconds: seconds(performance.now() - t0), files } })}\n`,
  );
}

// ---------------------------------------------------------------------------------------------
// Probe: Dawn's adapter

async function probeMode(task: { dawnOptions: string[]; compat: boolean }): Promise<void> {
  const result: any = { dawnOptions: task.dawnOptions, compat: task.compat };
  const emit = () => process.stdout.write(`${JSON.stringify({ result })}\n`);
  try {
    const { gpu } = await installDawn(task.dawnOptions, task.compat);
    const t0 = performance.now();
    const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
    result.requestAdapterMs = round(performance.now() - t0);
    if (!adapter) {
      result.adapter = null;
      emit();
      process.exit(0);
    }
    const info = adapter.info ?? {};
    result.adapter = {
      vendor: info.vendor,
      architecture: info.architecture,
      device: info.device,
      description: info.description,
      isFallbackAdapter: info.isFallbackAdapter ?? adapter.isFallbackAdapter,
      subgroupMinSize: info.subgroupMinSize,
      subgroupMaxSize: info.subgroupMaxSize,
      features: [...adapter.features].sort(),
      limits: Object.fromEntries(
        [
          'maxBufferSize',
          'maxStorageBufferBindingSize',
          'maxComputeWorkgroupStorageSize',
          'maxComputeInvocationsPerWorkgroup',
          'maxComputeWorkgroupSizeX',
          'maxStorageBuffersPerShaderStage',
          'maxComputeWorkgroupsPerDimension',
        ].map((k) => [k, adapter.limits[k]]),
      ),
    };
    result.vaaniProbe = await probeWebGpu(); // Vaani's own check: { f16 } or undefined
    emit();
    // Micro-timings: an empty submit's round trip, and reading back 151,936 floats (one logits row).
    const features = adapter.features.has('shader-f16') ? ['shader-f16'] : [];
    const device = await adapter.requestDevice({ requiredFeatures: features });
    const submitMs: number[] = [];
    for (let i = 0; i < 30; i++) {
      const t = performance.now();
      device.queue.submit([device.createCommandEncoder().finish()]);
      await device.queue.onSubmittedWorkDone();
      submitMs.push(performance.now() - t);
    }
    const bytes = 151936 * 4;
    const src = device.createBuffer({
      size: bytes,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(src, 0, new Float32Array(151936).fill(1));
    const readMs: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      const staging = device.createBuffer({ size: bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
      const encoder = device.createCommandEncoder();
      encoder.copyBufferToBuffer(src, 0, staging, 0, bytes);
      device.queue.submit([encoder.finish()]);
      await staging.mapAsync(GPUMapMode.READ);
      const sum = new Float32Array(staging.getMappedRange())[151935];
      staging.unmap();
      staging.destroy();
      if (sum !== 1) throw new Error(`readback check failed: ${sum}`);
      readMs.push(performance.now() - t);
    }
    // A compute dispatch that writes, read back: the device computes.
    const module = device.createShaderModule({
      code: '@group(0) @binding(0) var<storage, read_write> b: array<f32>; @compute @workgroup_size(64) fn main(@builtin(global_invocation_id) i: vec3u) { b[i.x] = b[i.x] * 2.0 + f32(i.x); }',
    });
    const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
    const bind = device.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: [{ binding: 0, resource: { buffer: src } }],
    });
    const dispatchMs: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      const encoder = device.createCommandEncoder();
      const pass = encoder.beginComputePass();
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, bind);
      pass.dispatchWorkgroups(151936 / 64);
      pass.end();
      device.queue.submit([encoder.finish()]);
      await device.queue.onSubmittedWorkDone();
      dispatchMs.push(performance.now() - t);
    }
    result.micro = {
      emptySubmitRoundTripMsMedian: round(median(submitMs), 3),
      logitsReadback600KBMsMedian: round(median(readMs), 3),
      oneDispatchRoundTripMsMedian: round(median(dispatchMs), 3),
    };
    device.destroy();
  } catch (error) {
    result.error = describeError(error);
  }
  emit();
  process.exit(0);
}

// ---------------------------------------------------------------------------------------------
// Child: one group

interface GroupTask {
  id: string;
  build: OrtBuildName;
  backend: 'webgpu' | 'wasm';
  /** The model's variant key: dtype, `-gqa` for fused attention. */
  dtype: string;
  modelDir: string;
  prompts: number[];
  newTokens: number;
  roundsShort: number;
  roundsLong: number;
  /** onnxruntime-web WASM threads for this instance; undefined: Vaani's wasmThreads(). */
  threads?: number;
  dawnOptions: string[];
  compat: boolean;
  resultFile: string;
  /** The native EP replaying a captured decode step (capture.ts): fused-GQA exports only. */
  capture?: boolean;
  /** A default model's memory on WebGPU (families.ts): FAMILY_MODELS's key, and the graphs written. */
  family?: string;
  graphs?: string[];
  external?: Record<string, string[]>;
  /** Epoch ms: no new measurement starts after it. */
  deadline: number;
}

interface RunTiming {
  contender: 'vaani' | 'bare';
  promptTokens: number;
  ttftMs: number;
  prefillTps: number;
  decodeTpsMedianStep: number;
  decodeTpsSpan: number;
  stepMs: { min: number; p10: number; median: number; p90: number; max: number; first3: number[] };
  stepsMs: number[];
  generated: number;
  tokens: number[];
  cacheLocation?: string;
}

/** The chat-bare worker's prompt: 100 + (i · 37 mod 1000), kept inside small vocabularies. */
let promptVocab = 151936;
const promptIds = (n: number) =>
  Array.from({ length: n }, (_, i) => 100 + ((i * 37) % Math.min(1000, promptVocab - 100)));

function summarise(
  contender: 'vaani' | 'bare',
  promptTokens: number,
  ttftMs: number,
  stepsMs: number[],
  tokens: number[],
): RunTiming {
  const decodeMs = stepsMs.reduce((a, b) => a + b, 0);
  return {
    contender,
    promptTokens,
    ttftMs: round(ttftMs, 2),
    prefillTps: round(promptTokens / (ttftMs / 1000)),
    decodeTpsMedianStep: round(1000 / median(stepsMs), 2),
    decodeTpsSpan: round(stepsMs.length / (decodeMs / 1000), 2),
    stepMs: {
      min: round(Math.min(...stepsMs), 2),
      p10: round(quantile(stepsMs, 0.1), 2),
      median: round(median(stepsMs), 2),
      p90: round(quantile(stepsMs, 0.9), 2),
      max: round(Math.max(...stepsMs), 2),
      first3: stepsMs.slice(0, 3).map((x) => round(x, 2)),
    },
    generated: tokens.length,
    tokens,
    stepsMs: stepsMs.map((x) => round(x, 2)),
  };
}

/** Vaani: CachedDecoder.prefill (PREFILL_CHUNK tokens a run, a yield between them) → Sampler (greedy) → per token: yield, step, sample; as generate() does. */
async function vaaniRun(
  decoder: CachedDecoder,
  prompt: number[],
  newTokens: number,
  yieldEachToken = true,
): Promise<RunTiming> {
  decoder.reset();
  const sampler = new Sampler({ temperature: 0, top_p: 1, presence_penalty: 0, frequency_penalty: 0 });
  const signal = new AbortController().signal; // never aborted: prefill still yields between chunks
  const t0 = performance.now();
  let logits = (await decoder.prefill(prompt, signal))!;
  let token = sampler.next(logits);
  const ttftMs = performance.now() - t0;
  const cacheLocation = (decoder as any).cache?.['past_key_values.0.key']?.location;
  const tokens = [token];
  const stepsMs: number[] = [];
  while (tokens.length < newTokens) {
    const t = performance.now();
    if (yieldEachToken) await yieldToEvents();
    logits = await decoder.step([token]);
    token = sampler.next(logits);
    stepsMs.push(performance.now() - t);
    tokens.push(token);
  }
  decoder.reset();
  return { ...summarise('vaani', prompt.length, ttftMs, stepsMs, tokens), cacheLocation };
}

let halfTable: Float32Array | undefined;
function halfToFloat(bits: number): number {
  if (!halfTable) {
    halfTable = new Float32Array(65536);
    for (let h = 0; h < 65536; h++) {
      const sign = h & 0x8000 ? -1 : 1;
      const exp = (h >> 10) & 0x1f;
      const frac = h & 0x3ff;
      halfTable[h] =
        exp === 0
          ? sign * 2 ** -14 * (frac / 1024)
          : exp === 31
            ? frac
              ? NaN
              : sign * Infinity
            : sign * 2 ** (exp - 15) * (1 + frac / 1024);
    }
  }
  return halfTable[bits]!;
}

/** The bare loop: session.run with present → past, prompt chunks of `chunk` tokens (the engine's), argmax of the last row read back each step. */
async function bareRun(
  ort: Ort,
  session: OrtSession,
  prompt: number[],
  newTokens: number,
  chunk: number,
): Promise<RunTiming> {
  const inputs = session.inputMetadata as any[];
  const has = (name: string) => inputs.some((m) => m.name === name);
  const pastInputs = inputs.filter((m) => m.name.startsWith('past_key_values.'));
  const empty = () =>
    Object.fromEntries(
      pastInputs.map((m) => {
        const [, heads, , dim] = m.shape as number[];
        const type = m.type as 'float32' | 'float16';
        return [
          m.name,
          new ort.Tensor(type, type === 'float16' ? new Uint16Array(0) : new Float32Array(0), [1, heads!, 0, dim!]),
        ];
      }),
    );
  let cache: Record<string, any> = empty();
  const step = async (ids: number[], start: number) => {
    const total = start + ids.length;
    const feeds: Record<string, any> = {
      input_ids: new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), [1, ids.length]),
      attention_mask: new ort.Tensor('int64', new BigInt64Array(total).fill(1n), [1, total]),
      ...cache,
    };
    if (has('position_ids'))
      feeds.position_ids = new ort.Tensor(
        'int64',
        BigInt64Array.from(ids, (_, i) => BigInt(start + i)),
        [1, ids.length],
      );
    if (has('num_logits_to_keep')) feeds.num_logits_to_keep = new ort.Tensor('int64', new BigInt64Array([1n]), []);
    const out = await session.run(feeds);
    for (const tensor of Object.values(cache)) tensor.dispose();
    const next: Record<string, any> = {};
    for (const name of Object.keys(cache)) next[name] = out[name.replace('past_key_values.', 'present.')];
    cache = next;
    const logits = out.logits!;
    const vocab = logits.dims.at(-1)!;
    const data = (await logits.getData()) as Float32Array | Uint16Array;
    logits.dispose();
    const from = data.length - vocab;
    let best = from;
    if (data instanceof Float32Array) {
      for (let i = from + 1; i < data.length; i++) if (data[i]! > data[best]!) best = i;
    } else {
      let bestValue = halfToFloat(data[from]!);
      for (let i = from + 1; i < data.length; i++) {
        const v = halfToFloat(data[i]!);
        if (v > bestValue) {
          bestValue = v;
          best = i;
        }
      }
    }
    return best - from;
  };
  const t0 = performance.now();
  let token = 0;
  for (let at = 0; at < prompt.length; at += chunk) token = await step(prompt.slice(at, at + chunk), at);
  const ttftMs = performance.now() - t0;
  const cacheLocation = Object.values(cache)[0]?.location;
  const tokens = [token];
  const stepsMs: number[] = [];
  while (tokens.length < newTokens) {
    const t = performance.now();
    token = await step([token], prompt.length + tokens.length - 1);
    stepsMs.push(performance.now() - t);
    tokens.push(token);
  }
  for (const tensor of Object.values(cache)) tensor.dispose();
  return { ...summarise('bare', prompt.length, ttftMs, stepsMs, tokens), cacheLocation };
}

interface KernelRecord {
  programName: string;
  startTime: number;
  endTime: number;
}

/**
 * Where a WebGPU decode step's time goes (JSEP only): onnxruntime-web's own timestamp queries
 * (`env.webgpu.profiling`, the adapter's `timestamp-query`) give each kernel's GPU time; the step's
 * wall time minus the GPU's busy time is the host's share (dispatch, encoding, submits, readback).
 * Steps with profiling on are slower, so their wall time is not reported as decode speed.
 */
async function profileSteps(ort: Ort, decoder: KvDecoder, prompt: number[], steps: number): Promise<object> {
  const records: KernelRecord[] = [];
  const profiling = (ort.env as any).webgpu;
  const settle = () => new Promise((r) => setTimeout(r, 30));
  try {
    profiling.profiling = { mode: 'default', ondata: (d: KernelRecord) => records.push(d) };
    decoder.reset();
    const sampler = new Sampler({ temperature: 0, top_p: 1, presence_penalty: 0, frequency_penalty: 0 });
    let token = sampler.next((await decoder.prefill(prompt))!);
    await settle();
    const perStep: {
      kernels: number;
      gpuBusyMs: number;
      gpuSpanMs: number;
      wallMs: number;
      calls: typeof gpuCalls;
    }[] = [];
    const byProgram = new Map<string, { count: number; ms: number }>();
    for (let i = 0; i < steps; i++) {
      const from = records.length;
      const calls = { ...gpuCalls };
      const t = performance.now();
      token = sampler.next(await decoder.step([token]));
      const wallMs = performance.now() - t;
      await settle();
      const mine = records.slice(from);
      const busy = mine.reduce((a, k) => a + (k.endTime - k.startTime), 0) / 1e6;
      const span = mine.length
        ? (Math.max(...mine.map((k) => k.endTime)) - Math.min(...mine.map((k) => k.startTime))) / 1e6
        : 0;
      const delta = Object.fromEntries(
        Object.entries(gpuCalls).map(([k, v]) => [k, v - calls[k as keyof typeof gpuCalls]]),
      ) as typeof gpuCalls;
      perStep.push({ kernels: mine.length, gpuBusyMs: busy, gpuSpanMs: span, wallMs, calls: delta });
      if (i > 0)
        for (const k of mine) {
          const entry = byProgram.get(k.programName) ?? { count: 0, ms: 0 };
          entry.count++;
          entry.ms += (k.endTime - k.startTime) / 1e6;
          byProgram.set(k.programName, entry);
        }
    }
    decoder.reset();
    const steady = perStep.slice(1);
    const med = (f: (x: (typeof steady)[number]) => number) => round(median(steady.map(f)), 3);
    return {
      steps: steady.length,
      dispatchesPerStep: med((x) => x.calls.dispatches),
      submitsPerStep: med((x) => x.calls.submits),
      mapsPerStep: med((x) => x.calls.maps),
      writeBuffersPerStep: med((x) => x.calls.writes),
      timedKernelsPerStep: med((x) => x.kernels),
      gpuBusyMsPerStep: med((x) => x.gpuBusyMs),
      gpuSpanMsPerStep: med((x) => x.gpuSpanMs),
      profiledWallMsPerStep: med((x) => x.wallMs),
      topPrograms: [...byProgram]
        .sort((a, b) => b[1].ms - a[1].ms)
        .slice(0, 10)
        .map(([name, v]) => ({
          name,
          perStep: round(v.count / steady.length, 1),
          msPerStep: round(v.ms / steady.length, 3),
        })),
      ...(records.length ? {} : { note: 'no timestamp data (the adapter lacks timestamp-query)' }),
    };
  } catch (error) {
    return { error: describeError(error).message };
  } finally {
    profiling.profiling = { mode: 'off' };
  }
}

/** A group of the native EP replaying a captured step: rounds of prompt + new tokens, greedy, with the calls a step makes. */
async function captureGroup(
  ort: Ort,
  task: GroupTask,
  result: any,
  save: () => void,
  model: { graph: Uint8Array; externalData: { path: string; data: Uint8Array }[]; config: any; llm: LlmConfig },
): Promise<void> {
  const c = model.config;
  const capacity = Math.max(...task.prompts) + task.newTokens;
  const capture = await createCaptureSession(
    ort,
    {
      graph: lengthsAsInputs(model.graph)!,
      externalData: model.externalData,
      layers: c.num_hidden_layers,
      kvHeads: c.num_key_value_heads,
      headDim: c.head_dim ?? c.hidden_size / c.num_attention_heads,
      vocab: c.vocab_size,
    },
    capacity,
  );
  result.phases.createSessionMs = round(capture.createMs);
  result.capacity = capacity;
  save();
  const cold = await capture.run(promptIds(4), 4);
  result.cold = { ttftMs: round(cold.ttftMs, 2), stepMs: round(Math.max(...cold.stepsMs), 2) };
  for (const length of task.prompts) {
    const runs: RunTiming[] = [];
    const rounds = length <= 256 ? task.roundsShort : task.roundsLong;
    for (let r = 0; r < rounds; r++) {
      if (r > 0 && Date.now() > task.deadline) break;
      const calls = { ...gpuCalls };
      const run = await capture.run(promptIds(length), task.newTokens);
      const timing = summarise('bare', length, run.ttftMs, run.stepsMs, run.tokens);
      const steps = length + task.newTokens - 1;
      (timing as any).callsPerStep = Object.fromEntries(
        Object.entries(gpuCalls).map(([k, v]) => [k, round((v - calls[k as keyof typeof gpuCalls]) / steps, 1)]),
      );
      runs.push(timing);
      result.runs.push({ round: r, ...timing });
      process.stdout.write(
        `${task.id} L=${length} r${r}: TTFT ${timing.ttftMs} ms (one token a step), decode ${timing.decodeTpsMedianStep} tok/s (median step ${timing.stepMs.median} ms), calls a step ${JSON.stringify((timing as any).callsPerStep)}\n`,
      );
      save();
    }
    const reference = runs[0]?.tokens.join(',');
    result.checks.push({
      promptTokens: length,
      runs: runs.length,
      sameGreedyTokens: runs.every((run) => run.tokens.join(',') === reference),
      tokens: runs[0]?.tokens,
    });
    save();
    // Where a step's time goes between the two: the bare replay with generate()'s yield before each token.
    if (env.BENCH_CAPTURE_DIAG === '1' && length <= 256)
      for (let r = 0; r < 2; r++) {
        const run = await capture.run(promptIds(length), task.newTokens, yieldToEvents);
        const timing = summarise('bare', length, run.ttftMs, run.stepsMs, run.tokens);
        (result.diag ??= []).push({ what: 'bare replay, a yield before each step', round: r, ...timing });
        process.stdout.write(
          `${task.id} DIAG bare+yield L=${length} r${r}: decode ${timing.decodeTpsMedianStep} tok/s (median step ${timing.stepMs.median} ms)\n`,
        );
        save();
      }
  }
  await capture.release();
  // The library's own captured decoder (src/worker/chat/captured.ts): chunked prefill on an uncaptured
  // session into the same cache, then replayed steps, through the Sampler as generate() does.
  const t0 = performance.now();
  const decoder = await CapturedDecoder.start(ort, {
    graph: model.graph,
    externalData: model.externalData,
    config: model.llm,
    operators: graphOperators(model.graph),
    capacity,
  });
  result.phases.vaaniCreateMs = round(performance.now() - t0);
  await vaaniRun(decoder, promptIds(16), 2);
  for (const length of task.prompts) {
    const bare = result.checks.find((c: any) => c.promptTokens === length)?.tokens?.join(',');
    const rounds = length <= 256 ? task.roundsShort : task.roundsLong;
    const runs: RunTiming[] = [];
    for (let r = 0; r < rounds; r++) {
      if (r > 0 && Date.now() > task.deadline) break;
      const timing = await vaaniRun(decoder, promptIds(length), task.newTokens);
      runs.push(timing);
      result.runs.push({ round: r, ...timing });
      process.stdout.write(
        `${task.id} vaani L=${length} r${r}: TTFT ${timing.ttftMs} ms, decode ${timing.decodeTpsMedianStep} tok/s (median step ${timing.stepMs.median} ms), same tokens as the bare replay: ${timing.tokens.join(',') === bare}\n`,
      );
      save();
    }
    result.checks.push({
      contender: 'vaani',
      promptTokens: length,
      runs: runs.length,
      sameGreedyTokens: runs.every((run) => run.tokens.join(',') === bare),
    });
    save();
    if (env.BENCH_CAPTURE_DIAG === '1' && length <= 256) {
      for (let r = 0; r < 2; r++) {
        const timing = await vaaniRun(decoder, promptIds(length), task.newTokens, false);
        (result.diag ??= []).push({ what: 'Vaani, no yield between tokens', round: r, ...timing });
        process.stdout.write(
          `${task.id} DIAG vaani-noyield L=${length} r${r}: decode ${timing.decodeTpsMedianStep} tok/s (median step ${timing.stepMs.median} ms), same tokens: ${timing.tokens.join(',') === bare}\n`,
        );
        save();
      }
      // The captured session's run alone, inside Vaani's step (the rest: inputs written, logits read, sampling).
      const stepper = (decoder as any).stepper;
      const original = stepper.run.bind(stepper);
      const runMs: number[] = [];
      stepper.run = async (...args: unknown[]) => {
        const t = performance.now();
        const out = await original(...args);
        runMs.push(performance.now() - t);
        return out;
      };
      const timing = await vaaniRun(decoder, promptIds(length), task.newTokens);
      stepper.run = original;
      (result.diag ??= []).push({ what: "Vaani, the captured session's run timed inside each step", ...timing, runMs });
      process.stdout.write(
        `${task.id} DIAG vaani split L=${length}: median step ${timing.stepMs.median} ms, of which session.run ${round(median(runMs), 2)} ms\n`,
      );
      save();
    }
  }
  // Both sessions' weights and the fixed cache: what capture costs in memory.
  result.memory = memoryNow('webgpu');
  await decoder.release();
  result.totalMs = Date.now() - started;
  save();
}

/**
 * The process's memory with its model loaded and run: resident and peak resident (VmHWM) host
 * memory, and on WebGPU the GPU memory in use on the device (nvidia-smi, the whole device: the bench
 * runs one group at a time).
 */
function memoryNow(backend: 'webgpu' | 'wasm') {
  const status = (() => {
    try {
      return readFileSync('/proc/self/status', 'utf8');
    } catch {
      return '';
    }
  })();
  const kib = (key: string) => Number(status.match(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm'))?.[1] ?? NaN);
  const smi = existsSync('/usr/local/nvidia/bin/nvidia-smi') ? '/usr/local/nvidia/bin/nvidia-smi' : 'nvidia-smi';
  const gpu = backend === 'webgpu' ? sh(smi, ['--query-gpu=memory.used', '--format=csv,noheader,nounits']) : undefined;
  return {
    rssMiB: round(kib('VmRSS') / 1024),
    peakRssMiB: round(kib('VmHWM') / 1024),
    ...(gpu !== undefined ? { gpuUsedMiB: Number.isFinite(Number(gpu)) ? Number(gpu) : gpu } : {}),
  };
}

const threadCount = () => {
  try {
    return readdirSync('/proc/self/task').length;
  } catch {
    return undefined;
  }
};

async function childMode(task: GroupTask): Promise<void> {
  const result: any = {
    id: task.id,
    build: task.build,
    backend: task.backend,
    dtype: task.dtype,
    model: task.modelDir,
    phases: {},
    runs: [],
    firstAtLength: [],
    checks: [],
    errors: [],
  };
  const save = () => writeFileSync(task.resultFile, JSON.stringify(result, null, 1));
  const phase = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    const value = await work();
    result.phases[name] = round(performance.now() - t);
    save();
    return value;
  };
  const say = (line: string) => process.stdout.write(`${line}\n`);
  save();
  try {
    installFileFetch();
    // Before onnxruntime-web loads, as Vaani's chat worker does: the KV cache's CPU outputs reuse recycled buffers.
    installOutputPool();
    if (task.backend === 'webgpu') await phase('dawnMs', () => installDawn(task.dawnOptions, task.compat));
    if (task.backend === 'wasm') (globalThis as any).crossOriginIsolated = true; // as in a cross-origin-isolated page
    const ort = (await phase('importOrtMs', () => importOrt(task.build))) as Ort;
    ort.env.wasm.numThreads = task.threads ?? wasmThreads();
    result.ortVersion = (ort.env as any).versions?.web ?? (ort.env as any).versions?.common;
    result.wasmThreads = ort.env.wasm.numThreads;
    const gpu = task.backend === 'webgpu' ? await probeWebGpu() : undefined;
    result.vaaniGpuSupport = gpu ?? null;
    if (task.backend === 'webgpu' && !gpu) throw new Error('Vaani probeWebGpu(): no WebGPU adapter');
    if (task.family) {
      const model = FAMILY_MODELS[task.family]!;
      Object.assign(result, { family: model, loads: [], agreement: [] });
      await familyMemory(
        ort,
        { dir: task.modelDir, graphs: task.graphs ?? [], external: task.external },
        () => memoryNow('webgpu'),
        result,
        save,
      );
      result.totalMs = Date.now() - started;
      save();
      process.exit(0);
    }
    const dir = task.modelDir;
    const json = async (file: string) => JSON.parse(await readFile(join(dir, file), 'utf8'));
    const configJson = await json('config.json');
    promptVocab = configJson.vocab_size ?? promptVocab;
    const config: LlmConfig = readConfig({
      config: configJson,
      generation: await json('generation_config.json'),
      tokenizerConfig: await json('tokenizer_config.json'),
    });
    const graphName = onnxFileName(parseVariant(task.dtype).dtype);
    const [graph, externalData] = await phase('readFilesMs', async () => {
      const names = readdirSync(join(dir, 'onnx'))
        .filter((f) => f.startsWith(`${graphName}_data`))
        .sort();
      return [
        new Uint8Array(await readFile(join(dir, 'onnx', graphName))),
        await Promise.all(
          names.map(async (path) => ({ path, data: new Uint8Array(await readFile(join(dir, 'onnx', path))) })),
        ),
      ] as const;
    });
    result.modelBytes = graph.byteLength + externalData.reduce((a, f) => a + f.data.byteLength, 0);
    if (task.capture) {
      await captureGroup(ort, task, result, save, { graph, externalData, config: configJson, llm: config });
      process.exit(0);
    }
    const session = await phase('createSessionMs', () =>
      createSession(ort, { backend: task.backend, graph, externalData }),
    );
    const layout = layoutOf(session, config, undefined, task.backend);
    result.layout = layout;
    result.threadsInProcess = threadCount();
    if (task.backend === 'webgpu' && layout.cacheType === 'float16' && !gpu?.f16)
      throw new Error(
        `${graphName} computes in float16 but this WebGPU adapter lacks shader-f16 (Vaani would not use it)`,
      );
    const device = (ort.env as any).webgpu?.device;
    if (device) {
      try {
        result.device = {
          features: [...device.features].sort(),
          maxBufferSize: device.limits?.maxBufferSize,
          maxStorageBufferBindingSize: device.limits?.maxStorageBufferBindingSize,
        };
        device.lost?.then?.(
          (info: any) => info?.reason !== 'destroyed' && say(`DEVICE LOST: ${info?.reason} ${info?.message}`),
        );
      } catch (error) {
        result.device = { error: describeError(error).message };
      }
    }
    const decoder = new KvDecoder(ort, session, layout);
    say(
      `session ready: ${task.id} (${result.phases.createSessionMs} ms), cache ${layout.cacheType}, ${layout.layers} layers, threads ${result.wasmThreads}`,
    );

    // Cold start: the first tokens ever (shader compilation on WebGPU).
    const cold = await phase('coldRunMs', () => vaaniRun(decoder, promptIds(16), 2));
    result.cold = { ttftMs: cold.ttftMs, stepMs: cold.stepMs.max };
    for (const length of task.prompts) {
      if (Date.now() > task.deadline) {
        result.errors.push({ message: `skipped prompt ${length}: time budget` });
        save();
        continue;
      }
      const prompt = promptIds(length);
      // First run at this length (new shapes: shader compilation), short, kept apart from the timed rounds.
      const first = await vaaniRun(decoder, prompt, 4);
      const bareFirst = await bareRun(ort, session, prompt, 4, layout.prefillChunk); // the bare loop's code warms up too
      result.firstAtLength.push({ promptTokens: length, ttftMs: first.ttftMs, bareTtftMs: bareFirst.ttftMs });
      save();
      const rounds = length <= 256 ? task.roundsShort : task.roundsLong;
      const runs: RunTiming[] = [];
      for (let r = 0; r < rounds; r++) {
        if (r > 0 && Date.now() > task.deadline) break;
        const order: ('vaani' | 'bare')[] = r % 2 === 0 ? ['vaani', 'bare'] : ['bare', 'vaani'];
        for (const contender of order) {
          const timing =
            contender === 'vaani'
              ? await vaaniRun(decoder, prompt, task.newTokens)
              : await bareRun(ort, session, prompt, task.newTokens, layout.prefillChunk);
          runs.push(timing);
          result.runs.push({ round: r, ...timing });
          say(
            `${task.id} L=${length} r${r} ${contender}: TTFT ${timing.ttftMs} ms, prefill ${timing.prefillTps} tok/s, decode ${timing.decodeTpsMedianStep} tok/s (median step ${timing.stepMs.median} ms), cache ${timing.cacheLocation}`,
          );
          save();
        }
      }
      const reference = runs[0]?.tokens.join(',');
      const mismatched = runs.filter((run) => run.tokens.join(',') !== reference);
      result.checks.push({
        promptTokens: length,
        runs: runs.length,
        sameGreedyTokens: mismatched.length === 0,
        tokens: runs[0]?.tokens,
        ...(mismatched.length
          ? { mismatches: mismatched.map((run) => ({ contender: run.contender, tokens: run.tokens })) }
          : {}),
      });
      save();
    }
    if (task.backend === 'webgpu' && Date.now() < task.deadline)
      result.profile = await profileSteps(ort, decoder, promptIds(task.prompts[0] ?? 128), 12);
    result.memory = memoryNow(task.backend);
    result.writeBuffer = { ...writeBufferStats };
    await session.release();
  } catch (error) {
    result.errors.push(describeError(error));
    say(`ERROR ${task.id}: ${describeError(error).message}`);
  }
  result.writeBuffer ??= { ...writeBufferStats };
  result.totalMs = Date.now() - started;
  save();
  process.exit(0);
}

// ---------------------------------------------------------------------------------------------
// Orchestrator

let currentReport: any;

interface Spawned {
  code: number | null;
  signal: string | null;
  lines: string[];
  killed: boolean;
  ms: number;
}

const liveChildren = new Set<import('node:child_process').ChildProcess>();

/** Runs `bench.mjs <mode> <json>` in a child process, logging its output with a prefix; kills it after `timeoutMs`. */
function runChild(
  mode: string,
  payload: object,
  prefix: string,
  timeoutMs: number,
  extraEnv: Record<string, string> = {},
): Promise<Spawned> {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(
      process.execPath,
      ['--expose-gc', fileURLToPath(import.meta.url), mode, JSON.stringify(payload)],
      {
        env: { ...process.env, ...extraEnv },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    liveChildren.add(child);
    const lines: string[] = [];
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      log(`[${prefix}] killed after ${Math.round(timeoutMs / 1000)} s`);
      child.kill('SIGKILL');
    }, timeoutMs);
    const pipe = (stream: NodeJS.ReadableStream, tag: string) => {
      let rest = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        const parts = (rest + chunk).split('\n');
        rest = parts.pop()!;
        for (const line of parts) {
          lines.push(line);
          if (!line.startsWith('{"result"')) log(`[${prefix}${tag}] ${line}`);
        }
      });
      stream.on('end', () => {
        if (rest) {
          lines.push(rest);
          log(`[${prefix}${tag}] ${rest}`);
        }
      });
    };
    pipe(child.stdout!, '');
    pipe(child.stderr!, ' err');
    child.on('close', (code, signal) => {
      liveChildren.delete(child);
      clearTimeout(timer);
      resolve({ code, signal, lines, killed, ms: Date.now() - t0 });
    });
  });
}

const resultOf = (spawned: Spawned) => {
  const line = [...spawned.lines].reverse().find((l) => l.startsWith('{"result"'));
  return line ? JSON.parse(line).result : undefined;
};

function sh(command: string, args: string[]): string | undefined {
  try {
    return execFileSync(command, args, { encoding: 'utf8', timeout: 15000, stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch (error) {
    return `unavailable: ${cut((error as Error).message, 300)}`;
  }
}

async function orchestrate(): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  mkdirSync(workDir, { recursive: true });
  logFile = join(outDir, 'gpu-bench.log');
  const jsonFile = join(outDir, 'gpu-bench.json');
  const budgetMs = num('BENCH_BUDGET_S', 360) * 1000;
  const groupCapMs = num('BENCH_GROUP_CAP_S', 150) * 1000;
  const deadline = started + budgetMs;
  const left = () => deadline - Date.now();
  const spec: ModelSpec = {
    layers: num('BENCH_LAYERS', env.BENCH_TINY === '1' ? 2 : 24),
    tiny: env.BENCH_TINY === '1',
  };
  const dtypes = list('BENCH_MODELS', 'q4,q4-gqa,q4-gqa-static,q8');
  const prompts = list('BENCH_PROMPTS', '128,1024').map(Number);
  const wasmPrompts = list('BENCH_WASM_PROMPTS', '128').map(Number);
  const newTokens = num('BENCH_NEW_TOKENS', 64);
  const wasmThreadsWanted = num('BENCH_WASM_THREADS', os.availableParallelism?.() ?? os.cpus().length);
  const gpuThreads = env.BENCH_GPU_THREADS ? Number(env.BENCH_GPU_THREADS) : undefined;
  const fixtures = env.BENCH_FIXTURES || join(workDir, 'fixtures');
  const report: any = (currentReport = {
    bench: 'vaani-webgpu-node',
    startedAt: new Date(started).toISOString(),
    vaaniCommit: bundleInfo
      ? `${bundleInfo.projectCommit}${bundleInfo.projectDirty ? ' (with uncommitted changes)' : ''}`
      : 'unknown',
    bundle: bundleInfo,
    settings: {
      spec,
      dtypes,
      prompts,
      wasmPrompts,
      newTokens,
      wasmThreads: wasmThreadsWanted,
      gpuThreads: gpuThreads ?? 'wasmThreads() (1 in Node)',
      budgetS: budgetMs / 1000,
      prefillChunk: PREFILL_CHUNK,
    },
    vaaniDtypeOrder: { webgpuF16: WEBGPU_F16_DTYPES, webgpuF32: WEBGPU_F32_DTYPES, wasm: WASM_DTYPES },
    sessionOptions: {
      graphOptimizationLevel: 'all',
      webgpu: { preferredOutputLocation: 'gpu-buffer' },
    },
    host: {
      node: process.version,
      platform: `${os.type()} ${os.release()} ${os.arch()}`,
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      memGiB: round(os.totalmem() / 2 ** 30),
      loadavg: os.loadavg(),
      env: Object.fromEntries(
        [
          'VK_DRIVER_FILES',
          'VK_ICD_FILENAMES',
          '__EGL_VENDOR_LIBRARY_FILENAMES',
          'LD_LIBRARY_PATH',
          'BENCH_DAWN_OPTS',
          'EGL_PLATFORM',
          'BENCH_NVIDIA_ICD',
          'BENCH_NVIDIA_EGL',
        ].map((k) => [k, env[k]]),
      ),
      nvidiaSmi: sh(
        existsSync('/usr/local/nvidia/bin/nvidia-smi') ? '/usr/local/nvidia/bin/nvidia-smi' : 'nvidia-smi',
        ['--query-gpu=name,driver_version,memory.total,memory.used,clocks.max.sm', '--format=csv,noheader'],
      ),
    },
    generation: {},
    probe: { attempts: [] },
    groups: [],
    summary: [],
    errors: [],
  });
  const save = () => writeFileSync(jsonFile, JSON.stringify(report, null, 1));
  save();
  for (const signal of ['SIGTERM', 'SIGINT'] as const)
    process.on(signal, () => {
      log(`${signal}: stopping, writing what was measured`);
      finish(signal);
    });
  log(
    `vaani webgpu bench: node ${process.version}, ${report.host.cpus} cpus (${report.host.cpuModel}), ${report.host.memGiB} GiB, budget ${budgetMs / 1000} s`,
  );
  log(`nvidia-smi: ${report.host.nvidiaSmi}`);

  // 1. Fixtures: one generator process per dtype, in parallel (each regenerates the same seeded weights).
  const genStart = Date.now();
  const generators = new Map<string, Promise<any>>();
  for (const dtype of dtypes) {
    generators.set(
      dtype,
      runChild(
        'generate',
        { spec, variant: parseVariant(dtype), key: dtype, root: fixtures },
        `gen ${dtype}`,
        Math.max(10000, left() - 5000),
      ).then((spawned) => {
        const result = resultOf(spawned);
        const ok = result && !result.error && result.dir ? result : undefined;
        report.generation[dtype] = ok ?? {
          error: result?.error ?? `generator exited ${spawned.code ?? spawned.signal}`,
          killed: spawned.killed,
        };
        if (ok)
          log(
            `generated ${dtype} in ${ok.seconds} s: ${ok.files.map((f: any) => `${f.file} ${round(f.bytes / 1e6, 2)} MB`).join(', ')}`,
          );
        else log(`generation of ${dtype} failed: ${JSON.stringify(report.generation[dtype])}`);
        save();
        return ok;
      }),
    );
  }
  const allGenerated = Promise.all(generators.values()).then(() => {
    report.generation.wallSeconds = seconds(Date.now() - genStart);
    save();
  });

  // 2. Probe Dawn's adapter (while the generators run): as configured, then with the NVIDIA ICD named, then OpenGL ES.
  const dawnOptions = env.BENCH_DAWN_OPTS ? env.BENCH_DAWN_OPTS.split(' ').filter(Boolean) : [];
  const nvidiaIcd = env.BENCH_NVIDIA_ICD || '/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json';
  const nvidiaEgl = env.BENCH_NVIDIA_EGL || '/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json';
  const attempts: { name: string; options: string[]; compat: boolean; env: Record<string, string> }[] = [
    { name: 'default', options: dawnOptions, compat: env.BENCH_COMPAT === '1', env: {} },
  ];
  if (existsSync(nvidiaIcd) && !env.VK_DRIVER_FILES)
    attempts.push({
      name: 'nvidia-icd',
      options: dawnOptions,
      compat: false,
      env: {
        VK_DRIVER_FILES: nvidiaIcd,
        VK_ICD_FILENAMES: nvidiaIcd,
        __EGL_VENDOR_LIBRARY_FILENAMES: existsSync(nvidiaEgl) ? nvidiaEgl : '',
      },
    });
  attempts.push({
    name: 'vulkan-loader-debug',
    options: ['backend=vulkan'],
    compat: false,
    env: {
      VK_LOADER_DEBUG: 'error,warn',
      ...(existsSync(nvidiaIcd) ? { VK_DRIVER_FILES: nvidiaIcd, VK_ICD_FILENAMES: nvidiaIcd } : {}),
    },
  });
  attempts.push({
    name: 'opengles-compat',
    options: ['backend=opengles'],
    compat: true,
    env: {
      EGL_PLATFORM: 'surfaceless',
      ...(existsSync(nvidiaEgl) ? { __EGL_VENDOR_LIBRARY_FILENAMES: nvidiaEgl } : {}),
    },
  });
  let chosen: (typeof attempts)[number] | undefined;
  let software: { attempt: (typeof attempts)[number]; result: any } | undefined;
  const isSoftware = (a: any) =>
    a.isFallbackAdapter === true ||
    /llvmpipe|lavapipe|swiftshader|softpipe|software/i.test(
      `${a.vendor} ${a.architecture} ${a.device} ${a.description}`,
    );
  const take = (attempt: (typeof attempts)[number], result: any) => {
    chosen = attempt;
    report.probe.chosen = attempt.name;
    report.probe.adapter = result.adapter;
    report.probe.software = isSoftware(result.adapter);
    report.probe.micro = result.micro;
    report.probe.vaaniProbe = result.vaaniProbe;
    const a = result.adapter;
    log(
      `ADAPTER (${attempt.name}${report.probe.software ? ', SOFTWARE' : ''}): vendor=${a.vendor} architecture=${a.architecture} device=${a.device} description=${a.description} fallback=${a.isFallbackAdapter}`,
    );
    log(`  features: ${a.features.join(' ')}`);
    log(`  limits: ${JSON.stringify(a.limits)}  micro: ${JSON.stringify(result.micro)}`);
  };
  const allowed = env.BENCH_PROBE_ATTEMPTS ? list('BENCH_PROBE_ATTEMPTS', '') : undefined;
  for (const attempt of attempts.filter((a) => !allowed || allowed.includes(a.name))) {
    if (left() < 30000) break;
    const spawned = await runChild(
      'probe',
      { dawnOptions: attempt.options, compat: attempt.compat },
      `probe ${attempt.name}`,
      60000,
      attempt.env,
    );
    const result = resultOf(spawned) ?? { error: `probe exited ${spawned.code ?? spawned.signal}` };
    report.probe.attempts.push({ name: attempt.name, env: attempt.env, ...result });
    save();
    if (result.adapter && !isSoftware(result.adapter)) {
      take(attempt, result);
      break;
    }
    if (result.adapter) {
      log(
        `software adapter with ${attempt.name} (${result.adapter.device} ${result.adapter.description}): trying the others first`,
      );
      software ??= { attempt, result };
    } else log(`no adapter with ${attempt.name}${result.error ? `: ${result.error.message}` : ''}`);
  }
  if (!chosen && software) take(software.attempt, software.result);
  if (!chosen) {
    report.probe.adapter = null;
    report.errors.push({ message: 'no adapter: Dawn found no WebGPU adapter; WebGPU groups skipped' });
    log('NO ADAPTER: WebGPU groups are skipped, WASM groups still run');
  }
  if (chosen) Object.assign(process.env, chosen.env); // later children inherit what worked
  save();

  // 3. Groups, in priority order; each in its own process, each bounded by the budget.
  type Group = {
    id: string;
    build: OrtBuildName;
    backend: 'webgpu' | 'wasm';
    dtype: string;
    prompts: number[];
    afterGeneration?: boolean;
    capture?: boolean;
    family?: string;
  };
  const all: Group[] = [];
  for (const model of dtypes) {
    if (model.startsWith('mem-')) {
      all.push({
        id: `memory-webgpu-${model.slice(4)}`,
        build: 'native',
        backend: 'webgpu',
        dtype: model,
        prompts: [],
        family: model.slice(4),
      });
      continue;
    }
    if (model.endsWith('-static')) {
      // A fused-GQA export for graph capture: only the replaying group.
      all.push({
        id: `native-webgpu-${model}-capture`,
        build: 'native',
        backend: 'webgpu',
        dtype: model,
        prompts: list('BENCH_CAPTURE_PROMPTS', '128,1024').map(Number),
        capture: true,
      });
      continue;
    }
    // MatMulInteger (q8) has no WebGPU kernel: the session would run it on the CPU.
    if (!model.startsWith('q8'))
      for (const build of ['jsep', 'native'] as const)
        all.push({ id: `${build}-webgpu-${model}`, build, backend: 'webgpu', dtype: model, prompts });
    all.push({
      id: `wasm-${model}`,
      build: 'wasm',
      backend: 'wasm',
      dtype: model,
      prompts: wasmPrompts,
      afterGeneration: true,
    });
    for (const length of list('BENCH_WASM_EXTRA_PROMPTS', '').map(Number))
      all.push({
        id: `wasm-${model}-L${length}`,
        build: 'wasm',
        backend: 'wasm',
        dtype: model,
        prompts: [length],
        afterGeneration: true,
      });
  }
  // JSEP (what the library shipped when these were first measured) and the native EP (what it ships now), then the rest in the order built.
  const first = list(
    'BENCH_PRIORITY',
    'jsep-webgpu-q4,jsep-webgpu-q4-gqa,native-webgpu-q4-gqa,native-webgpu-q4-gqa-static-capture,wasm-q4,wasm-q8,wasm-q4-gqa,native-webgpu-q4',
  );
  const rank = (g: Group) => (first.includes(g.id) ? first.indexOf(g.id) : first.length + all.indexOf(g));
  all.sort((a, b) => rank(a) - rank(b));
  const wanted = env.BENCH_GROUPS ? list('BENCH_GROUPS', '') : undefined;
  const groups = wanted ? wanted.map((id) => all.find((g) => g.id === id)).filter((g): g is Group => !!g) : all;
  report.plannedGroups = groups.map((g) => g.id);
  save();

  // Next group: the first in priority order whose model is written (a CPU group: once every
  // generator is done, so it runs on a quiet machine); else wait for the next generator.
  const done = new Set<string>();
  let everythingGenerated = false;
  for (const [dtype, promise] of generators) void promise.then(() => done.add(dtype));
  void allGenerated.then(() => (everythingGenerated = true));
  const pending = [...groups];
  while (pending.length) {
    const index = pending.findIndex((g) => done.has(g.dtype) && (!g.afterGeneration || everythingGenerated));
    if (index < 0) {
      await Promise.race([allGenerated, ...[...generators].filter(([d]) => !done.has(d)).map(([, p]) => p)]);
      await new Promise((r) => setTimeout(r, 10));
      continue;
    }
    const group = pending.splice(index, 1)[0]!;
    const entry: any = {
      id: group.id,
      build: group.build,
      backend: group.backend,
      dtype: group.dtype,
      prompts: group.prompts,
    };
    report.groups.push(entry);
    try {
      const generated = await generators.get(group.dtype);
      if (group.backend === 'webgpu' && !chosen) {
        entry.skipped = 'no adapter';
        save();
        continue;
      }
      if (!generated) {
        entry.skipped = `no ${group.dtype} model`;
        save();
        continue;
      }
      if (left() < 25000) {
        entry.skipped = 'time budget';
        log(`skip ${group.id}: ${Math.round(left() / 1000)} s left`);
        save();
        continue;
      }
      const resultFile = join(workDir, `group-${group.id}.json`);
      const task: GroupTask = {
        id: group.id,
        build: group.build,
        backend: group.backend,
        dtype: group.dtype,
        modelDir: generated.dir,
        prompts: group.prompts,
        newTokens,
        roundsShort: num('BENCH_ROUNDS_SHORT', group.backend === 'wasm' ? 2 : 3),
        roundsLong: num('BENCH_ROUNDS_LONG', group.backend === 'wasm' ? 1 : 2),
        threads: group.backend === 'wasm' ? wasmThreadsWanted : gpuThreads,
        dawnOptions: chosen?.options ?? [],
        compat: chosen?.compat ?? false,
        resultFile,
        capture: group.capture,
        family: group.family,
        graphs: generated.graphs,
        external: generated.external,
        deadline: Math.min(deadline - 15000, Date.now() + groupCapMs - 20000),
      };
      entry.resultFile = resultFile;
      entry.generatorsStillRunning = dtypes.filter((d) => !done.has(d));
      log(
        `--- ${group.id} (${Math.round(left() / 1000)} s left${entry.generatorsStillRunning.length ? `; still generating ${entry.generatorsStillRunning.join(',')}` : ''})`,
      );
      const limit = Math.max(5000, Math.min(groupCapMs, left() - 5000));
      const spawned = await runChild('child', task, group.id, limit);
      entry.exit = { code: spawned.code, signal: spawned.signal, killed: spawned.killed, seconds: seconds(spawned.ms) };
      if (existsSync(resultFile)) Object.assign(entry, JSON.parse(readFileSync(resultFile, 'utf8')));
      else entry.errors = [{ message: 'the child wrote no result' }];
    } catch (error) {
      entry.errors = [...(entry.errors ?? []), describeError(error)];
    }
    save();
  }
  await Promise.race([allGenerated, new Promise((r) => setTimeout(r, 1000))]);
  finish('done');
}

let finishing = false;
/** Summary rows, ratios and the table; exits. Also on SIGTERM (run.sh's timeout): whatever was measured. */
function finish(reason: string): void {
  if (finishing) return;
  finishing = true;
  const report = currentReport;
  if (!report) process.exit(1);
  for (const child of liveChildren) child.kill('SIGKILL');
  report.finishedBecause = reason;
  for (const g of report.groups) {
    if (!g.runs && g.resultFile && existsSync(g.resultFile)) {
      try {
        Object.assign(g, JSON.parse(readFileSync(g.resultFile, 'utf8')), { interrupted: true });
      } catch {
        // a half-written result: the group's entry keeps what it had
      }
    }
  }
  const jsonFile = join(outDir, 'gpu-bench.json');
  const save = () => writeFileSync(jsonFile, JSON.stringify(report, null, 1));
  // 4. Summary.
  const rows: any[] = [];
  for (const g of report.groups) {
    for (const length of g.prompts ?? []) {
      for (const contender of ['vaani', 'bare']) {
        const runs = (g.runs ?? []).filter((r: any) => r.promptTokens === length && r.contender === contender);
        if (!runs.length) continue;
        // TTFT: the best round (as Vaani's chat benches take it); decode: the median of every round's steps pooled.
        const best = runs.reduce((a: any, b: any) => (a.ttftMs <= b.ttftMs ? a : b));
        const steps = median(runs.flatMap((r: any) => r.stepsMs ?? [r.stepMs.median]));
        const check = (g.checks ?? []).find((c: any) => c.promptTokens === length);
        rows.push({
          group: g.id,
          dtype: g.dtype,
          backend: g.backend,
          build: g.build,
          promptTokens: length,
          contender,
          rounds: runs.length,
          ttftMs: best.ttftMs,
          prefillTps: best.prefillTps,
          decodeTps: round(1000 / steps, 2),
          decodeTpsBestRound: round(Math.max(...runs.map((r: any) => r.decodeTpsMedianStep)), 2),
          stepMsMedian: round(steps, 2),
          roundMedians: runs.map((r: any) => r.stepMs.median),
          sameTokens: check?.sameGreedyTokens,
          cache: best.cacheLocation,
        });
      }
    }
  }
  const find = (group: string, length: number, contender: string) =>
    rows.find((r) => r.group === group && r.promptTokens === length && r.contender === contender);
  const ratios: any[] = [];
  for (const row of rows.filter((r) => r.contender === 'vaani')) {
    const bare = find(row.group, row.promptTokens, 'bare');
    if (bare)
      ratios.push({
        what: `Vaani/bare ${row.group} L=${row.promptTokens}`,
        decode: round(row.decodeTps / bare.decodeTps, 3),
        prefill: round(row.prefillTps / bare.prefillTps, 3),
        ttft: round(row.ttftMs / bare.ttftMs, 3),
      });
    if (row.backend === 'webgpu') {
      const wasm = rows.find(
        (r) =>
          r.backend === 'wasm' &&
          r.dtype === row.dtype &&
          r.promptTokens === row.promptTokens &&
          r.contender === 'vaani',
      );
      if (wasm)
        ratios.push({
          what: `WebGPU(${row.build})/WASM(${wasm.group}) Vaani ${row.dtype} L=${row.promptTokens}`,
          decode: round(row.decodeTps / wasm.decodeTps, 3),
          prefill: round(row.prefillTps / wasm.prefillTps, 3),
          ttft: round(row.ttftMs / wasm.ttftMs, 3),
        });
    }
  }
  // Greedy tokens across backends (random weights, so float differences may flip a near tie).
  const agreement: any[] = [];
  const tokensOf = (g: any, length: number) =>
    (g.checks ?? []).find((c: any) => c.promptTokens === length)?.tokens as number[] | undefined;
  for (const g of report.groups) {
    for (const other of report.groups) {
      if (g === other || g.dtype !== other.dtype || g.id >= other.id) continue;
      for (const length of g.prompts ?? []) {
        const [a, b] = [tokensOf(g, length), tokensOf(other, length)];
        if (!a || !b) continue;
        let same = 0;
        while (same < Math.min(a.length, b.length) && a[same] === b[same]) same++;
        agreement.push({
          a: g.id,
          b: other.id,
          promptTokens: length,
          commonPrefix: same,
          of: Math.min(a.length, b.length),
        });
      }
    }
  }
  report.summary = rows;
  report.ratios = ratios;
  report.crossBackendAgreement = agreement;
  report.totalSeconds = seconds(Date.now() - started);
  save();
  const pad = (v: unknown, n: number) => String(v ?? '-').padStart(n);
  log('');
  log(
    `SUMMARY (${report.totalSeconds} s) adapter: ${report.probe.adapter ? `${report.probe.adapter.vendor} ${report.probe.adapter.architecture} ${report.probe.adapter.description ?? ''} f16=${report.probe.adapter.features.includes('shader-f16')}${report.probe.software ? ' SOFTWARE' : ''}` : 'none'}`,
  );
  log(
    `generation: ${Object.entries(report.generation)
      .map(([k, v]: any) => `${k} ${typeof v === 'object' ? (v.seconds ?? 'ERR') : v} s`)
      .join(', ')}`,
  );
  log(
    `${'group'.padEnd(22)} ${pad('L', 5)} ${'who'.padEnd(6)} ${pad('TTFT ms', 9)} ${pad('prefill/s', 10)} ${pad('decode/s', 9)} ${pad('best/s', 9)} ${pad('step ms', 8)} ${pad('same', 5)} cache       rounds' median step ms`,
  );
  for (const r of rows)
    log(
      `${r.group.padEnd(22)} ${pad(r.promptTokens, 5)} ${r.contender.padEnd(6)} ${pad(r.ttftMs, 9)} ${pad(r.prefillTps, 10)} ${pad(r.decodeTps, 9)} ${pad(r.decodeTpsBestRound, 9)} ${pad(r.stepMsMedian, 8)} ${pad(r.sameTokens, 5)} ${(r.cache ?? '').padEnd(11)} ${r.roundMedians.join(' / ')}`,
    );
  for (const r of ratios) log(`ratio ${r.what}: decode ${r.decode}x, prefill ${r.prefill}x, TTFT ${r.ttft}x`);
  for (const g of report.groups) {
    const errors = [...(g.errors ?? [])].map((e: any) => e.message);
    if (g.skipped) log(`group ${g.id}: skipped (${g.skipped})`);
    else if (errors.length) log(`group ${g.id}: ${errors.join(' | ')}`);
    else if (g.phases)
      log(
        `group ${g.id}: create ${g.phases.createSessionMs} ms, cold run ${g.phases.coldRunMs} ms, first-at-length ${JSON.stringify(g.firstAtLength?.map((f: any) => [f.promptTokens, f.ttftMs]))}`,
      );
  }
  for (const g of report.groups.filter((x: any) => x.figures))
    log(
      `memory ${g.id} (${g.family?.dtype}): ${JSON.stringify(g.figures)}; runs ${JSON.stringify((g.runs ?? []).map((r: any) => (r.error ? `${r.graph}: ${r.error}` : `${r.graph} ${r.ms} ms`)))}; agreement ${JSON.stringify(g.agreement)}`,
    );
  for (const g of report.groups.filter((x: any) => x.memory))
    log(`memory ${g.id}: ${JSON.stringify(g.memory)} for ${round((g.modelBytes ?? 0) / 2 ** 20)} MiB of model files`);
  for (const g of report.groups.filter((x: any) => x.profile))
    log(`profile ${g.id} (decode steps after ${g.prompts[0]} tokens): ${JSON.stringify(g.profile)}`);
  for (const a of agreement)
    log(`tokens ${a.a} vs ${a.b} L=${a.promptTokens}: first ${a.commonPrefix} of ${a.of} equal`);
  log(`results: ${jsonFile}`);
  process.exit(0);
}

// ---------------------------------------------------------------------------------------------

const [mode, payload] = process.argv.slice(2);
const fail = (error: unknown) => {
  process.stdout.write(`${JSON.stringify({ result: { error: describeError(error) } })}\n`);
  process.exit(1);
};
process.on('unhandledRejection', (error) => {
  process.stderr.write(`unhandled rejection: ${describeError(error).message}\n`);
});
if (mode === 'generate') generateMode(JSON.parse(payload!)).then(() => process.exit(0), fail);
else if (mode === 'probe') probeMode(JSON.parse(payload!)).catch(fail);
else if (mode === 'child') childMode(JSON.parse(payload!)).catch(fail);
else
  orchestrate().catch((error) => {
    log(`orchestrator failed: ${describeError(error).message}`);
    process.exit(1);
  });
void appDir;
