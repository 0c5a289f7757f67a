/* eslint-disable @typescript-eslint/no-explicit-any -- JSON reports passed between processes */
/**
 * Memory on WebGPU per default model (issue 33: the planner's WebGPU figures measured, not a ratio
 * guessed): the defaults the planner picks on a WebGPU adapter without `shader-f16` (q4 where the
 * export has it, else fp32), each written by the project's fixture generators at its real layer
 * sizes, every graph of it loaded through the library's `createSession` on the native WebGPU EP and
 * run once on inputs shaped from the graph's own metadata; then host memory (resident, after a GC,
 * above the process's own after a warm-up session) and GPU memory in use (nvidia-smi, above the same
 * point). Last, the same graphs on WASM, the same inputs: the largest difference of each output, so
 * the native EP's answers on a real GPU are checked against the CPU's for every family.
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createSession } from '../../src/common/backends/ort';
import type { Ort, OrtSession } from '../../src/common/backends/ort';
import { writeEncoderFixture } from '../../test/fixtures/encoder/generate';
import { e5SmallShape } from '../../test/fixtures/encoder/spec';
import { ensureDecoderFixture } from '../../test/fixtures/llm/fixture-dir';
import { DirectorySink } from '../../test/fixtures/llm/node-sink';
import { encodeModel, onnx, valueInfo } from '../../test/fixtures/llm/onnx-builder';
import {
  qwen25HalfBillionShape,
  qwen3HalfBillionShape,
  tinyQwen2,
  type DecoderFixtureOptions,
} from '../../test/fixtures/llm/spec';
import { FIXTURE_DIMS as INDIC_TINY, REAL_DIMS } from '../../test/fixtures/indic-conformer/dims';
import { externalEncoder } from '../../test/fixtures/indic-conformer/external';
import { indicConformerFiles } from '../../test/fixtures/indic-conformer/files';
import { BASE_DIMS, FIXTURE_DIMS as WHISPER_TINY } from '../../test/fixtures/whisper/dims';
import { writeWhisperFixture } from '../../test/fixtures/whisper/write';

export interface Exported {
  dir: string;
  graphs: string[];
  /** A graph's external data files where they are not `<graph>_data*` (one file per tensor), beside it. */
  external?: Record<string, string[]>;
}

export interface FamilyModel {
  /** The catalogue ids whose WebGPU plan this measures. */
  ids: string[];
  /** src/catalogue/fit.ts's model and family names. */
  model: string;
  family: string;
  dtype: string;
  what: string;
  /** Writes the export under `root`; its folder and the graphs the family's worker loads, relative to it. */
  write(root: string, tiny: boolean): Promise<Exported>;
}

/** A chat default as q4 (MatMulNBits) in the decoder generator's layout, at its real sizes (`tiny`: the tiny fixture). */
function q4Decoder(
  ids: string[],
  what: string,
  name: string,
  shape: DecoderFixtureOptions,
  extra: Partial<DecoderFixtureOptions> = {},
): FamilyModel {
  return {
    ids,
    model: ids[0]!,
    family: 'chat',
    dtype: 'q4',
    what,
    write: async (root, tiny) => {
      const options = { ...(tiny ? tinyQwen2 : shape), ...extra, dtypes: ['q4' as const] };
      const fixture = await ensureDecoderFixture(tiny ? `mem-tiny-${ids[0]}-q4` : name, options, root);
      return { dir: fixture.dir, graphs: ['onnx/model_q4.onnx'] };
    },
  };
}

/** Keys as `BENCH_MODELS` names them: `mem-<key>`. */
export const FAMILY_MODELS: Record<string, FamilyModel> = {
  'chat-v2': q4Decoder(
    ['chat-v2', 'agent-v1'],
    "Qwen3-0.6B's sizes at 28 layers (the generator's llama graph), q4 (MatMulNBits)",
    'mem-qwen3-0.6b-28l-q4',
    qwen3HalfBillionShape(28),
  ),
  'code-v1': q4Decoder(
    ['code-v1'],
    "Qwen2.5-Coder-0.5B's sizes at 24 layers, q4 (MatMulNBits)",
    'mem-qwen2.5-coder-0.5b-24l-q4',
    qwen25HalfBillionShape(24),
    { fim: true },
  ),
  'embed-v1': {
    ids: ['embed-v1'],
    model: 'embed-v1',
    family: 'embeddings',
    dtype: 'fp32',
    what: "multilingual-e5-small's 12 layers and 250,002-row vocabulary, fp32 (Xenova's model.onnx)",
    write: async (root, tiny) => {
      const options = tiny ? e5SmallShape(1) : { ...e5SmallShape(12), vocabSize: 250_002 };
      // Written directly: the encoder fixture's cache key hashes the generator's source folders, absent from the bundle.
      const dir = join(root, tiny ? 'mem-tiny-e5' : 'mem-e5-small-full-vocab-fp32');
      if (!existsSync(join(dir, 'onnx/model.onnx'))) await writeEncoderFixture(options, new DirectorySink(dir));
      return { dir, graphs: ['onnx/model.onnx'] };
    },
  },
  'speech-stt-v1': {
    ids: ['speech-stt-v1'],
    model: 'speech-stt-v1',
    family: 'whisper',
    dtype: 'fp32',
    what: "whisper-base's sizes, fp32 (onnx-community's encoder_model.onnx + decoder_model_merged.onnx)",
    write: async (root, tiny) => {
      const dir = join(root, tiny ? 'mem-whisper-tiny-fp32' : 'mem-whisper-base-fp32');
      if (!existsSync(join(dir, 'onnx/decoder_model_merged.onnx')))
        await writeWhisperFixture(dir, tiny ? WHISPER_TINY : BASE_DIMS, 1, false);
      return { dir, graphs: ['onnx/encoder_model.onnx', 'onnx/decoder_model_merged.onnx'] };
    },
  },
  'indic-conformer': {
    ids: ['speech-stt-v1 (22 scheduled languages)'],
    model: 'indic-conformer-12-layers',
    family: 'indic-conformer',
    dtype: 'fp32',
    what: "IndicConformer 600M's widths (d_model 1024, FF 4096, kernel 31) at 12 of its 24 layers, fp32, the encoder's weights one file per tensor as AI4Bharat's export, and the CTC head (the fixture writes the encoder inline first, and one protobuf holds 2 GB at most: the ratio is the figure)",
    write: async (root, tiny) => {
      const dir = join(root, tiny ? 'mem-indic-tiny-fp32-ext' : 'mem-indic-12l-fp32-ext');
      const list = join(dir, 'assets/external.json');
      if (!existsSync(list)) {
        const files = indicConformerFiles(tiny ? INDIC_TINY : { ...REAL_DIMS, layers: 12, dtype: 'fp32' }, 1, false);
        const split = externalEncoder(files.get('assets/encoder.onnx')!);
        files.set('assets/encoder.onnx', split.graph);
        for (const [name, bytes] of split.data) files.set(`assets/${name}`, bytes);
        for (const [path, bytes] of files) {
          await mkdir(dirname(join(dir, path)), { recursive: true });
          await writeFile(join(dir, path), bytes);
        }
        await writeFile(list, JSON.stringify([...split.data.keys()]));
      }
      const external = JSON.parse(await readFile(list, 'utf8')) as string[];
      return {
        dir,
        graphs: ['assets/encoder.onnx', 'assets/ctc_decoder.onnx'],
        external: { 'assets/encoder.onnx': external },
      };
    },
  },
};

/** A graph's external data files beside it (`<file>_data`, `<file>.data`, numbered parts), as createSession takes them. */
async function readGraph(dir: string, graph: string, external?: string[]) {
  const folder = join(dir, graph, '..');
  const base = graph.split('/').pop()!;
  const names =
    external ??
    readdirSync(folder)
      .filter((f) => f !== base && (f.startsWith(`${base}_data`) || f.startsWith(`${base}.data`)))
      .sort();
  return {
    graph: new Uint8Array(await readFile(join(dir, graph))),
    externalData: await Promise.all(
      names.map(async (path) => ({ path, data: new Uint8Array(await readFile(join(folder, path))) })),
    ),
  };
}

/** A symbolic dimension's size: 1 for batch, 0 for a cache's past length (a first step), a second of audio, else 16. */
function dimSize(name: string, dim: number | string | undefined, rank: number): number {
  if (typeof dim === 'number' && dim > 0) return dim;
  const d = String(dim ?? '');
  if (/batch/i.test(d)) return 1;
  if (/past|cache/i.test(d)) return 0;
  if (/audio|sample|wav/i.test(name) && rank === 2) return 16000; // raw samples: a second
  return 16;
}

/** Seeded inputs for every graph input, from the session's metadata: ids small, masks 1, lengths the sequence, flags false. */
export function synthFeeds(ort: Ort, session: OrtSession): Record<string, any> {
  const meta: any[] =
    (session as any).inputMetadata ?? session.inputNames.map((name) => ({ name, type: 'float32', shape: [] }));
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 - 0.5;
  const feeds: Record<string, any> = {};
  for (const m of meta) {
    const shape: number[] = (m.shape ?? []).map((d: any) => dimSize(m.name, d, (m.shape ?? []).length));
    const size = shape.reduce((a, b) => a * b, 1);
    const name: string = m.name;
    if (m.type === 'bool') feeds[name] = new ort.Tensor('bool', new Uint8Array(size), shape);
    else if (m.type === 'int64' || m.type === 'int32') {
      const values = Array.from({ length: size }, (_, i) =>
        /mask/i.test(name)
          ? 1
          : /length|len$|seqlen/i.test(name)
            ? Math.max(1, ...shape.slice(1).concat(16))
            : /position/i.test(name)
              ? i
              : 4 + ((i * 7) % 200),
      );
      feeds[name] =
        m.type === 'int64'
          ? new ort.Tensor('int64', BigInt64Array.from(values.map(BigInt)), shape)
          : new ort.Tensor('int32', Int32Array.from(values), shape);
    } else feeds[name] = new ort.Tensor('float32', Float32Array.from({ length: size }, random), shape);
  }
  return feeds;
}

/** A warm-up session (one Add), so the device, its queues and the EP's own start are in the baseline, not in a model's figure. */
export function warmUpGraph(): Uint8Array {
  const graph = onnx.GraphProto.create({
    name: 'warm-up',
    node: [onnx.NodeProto.create({ opType: 'Add', input: ['x', 'x'], output: ['y'] })],
    input: [valueInfo('x', 1, [4])],
    output: [valueInfo('y', 1, [4])],
  });
  return encodeModel(graph, 17);
}

const floats = (t: any): Float32Array | undefined =>
  t?.type === 'float32' && t.data instanceof Float32Array ? t.data : undefined;

/**
 * One family's export on the native WebGPU EP, then on WASM in the same build (as the library's worker
 * falls back): memory, run outcomes, agreement. `memory()` reads resident host and GPU memory; `gc` is
 * Node's (the child runs with --expose-gc).
 */
export async function familyMemory(
  ort: Ort,
  exported: Exported,
  memory: () => { rssMiB: number; peakRssMiB: number; gpuUsedMiB?: number | string },
  result: any,
  save: () => void,
): Promise<void> {
  const gc = (globalThis as any).gc as (() => void) | undefined;
  const settle = async () => {
    for (let i = 0; i < 3; i++) {
      gc?.();
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const warm = await createSession(ort, { backend: 'webgpu', graph: warmUpGraph(), externalData: [] });
  await warm.run({ x: new ort.Tensor('float32', new Float32Array(4), [4]) });
  await warm.release();
  await settle();
  const base = memory();
  result.memoryBase = base;
  const sessions: { graph: string; session: OrtSession }[] = [];
  let weights = 0;
  for (const graph of exported.graphs) {
    const t0 = performance.now();
    const files = await readGraph(exported.dir, graph, exported.external?.[graph]);
    weights += files.graph.byteLength + files.externalData.reduce((a, f) => a + f.data.byteLength, 0);
    sessions.push({ graph, session: await createSession(ort, { backend: 'webgpu', ...files }) });
    result.loads.push({ graph, ms: Math.round(performance.now() - t0) });
  }
  result.weights = weights;
  await settle();
  result.memoryLoaded = memory();
  save();
  const outputs = new Map<string, Record<string, Float32Array | undefined>>();
  const feedsOf = new Map<string, Record<string, any>>();
  for (const { graph, session } of sessions) {
    const feeds = synthFeeds(ort, session);
    feedsOf.set(graph, feeds);
    const t0 = performance.now();
    try {
      const out = await session.run(feeds);
      const kept: Record<string, Float32Array | undefined> = {};
      for (const [name, tensor] of Object.entries(out)) {
        const t = tensor as any;
        const data = t.location === 'gpu-buffer' ? await t.getData?.(true) : t.data;
        kept[name] = data instanceof Float32Array ? Float32Array.from(data) : undefined;
      }
      outputs.set(graph, kept);
      result.runs.push({
        graph,
        ms: Math.round(performance.now() - t0),
        inputs: Object.fromEntries(Object.entries(feeds).map(([k, v]) => [k, v.dims])),
        outputs: Object.fromEntries(Object.entries(out).map(([k, v]) => [k, (v as any).dims])),
      });
    } catch (error) {
      result.runs.push({ graph, error: (error as Error).message?.slice(0, 400) });
    }
    save();
  }
  await settle();
  result.memoryRun = memory();
  const mib = 2 ** 20;
  const gpuOf = (m: any) => (typeof m?.gpuUsedMiB === 'number' ? m.gpuUsedMiB : NaN);
  result.figures = {
    weightsMiB: Math.round((weights / mib) * 10) / 10,
    hostMiB: Math.round(result.memoryRun.rssMiB - base.rssMiB),
    hostPeakMiB: Math.round(result.memoryRun.peakRssMiB - base.rssMiB),
    gpuMiB: gpuOf(result.memoryRun) - gpuOf(base),
  };
  save();
  for (const { session } of sessions) await session.release();
  sessions.length = 0;

  // The same graphs and inputs on WASM: each float output's largest difference.
  const cpu = ort;
  for (const graph of exported.graphs) {
    const gpuOut = outputs.get(graph);
    if (!gpuOut) continue;
    try {
      const session = await createSession(cpu, {
        backend: 'wasm',
        ...(await readGraph(exported.dir, graph, exported.external?.[graph])),
      });
      const out = await session.run(
        Object.fromEntries(
          Object.entries(feedsOf.get(graph)!).map(([k, v]) => [k, new cpu.Tensor(v.type, v.data, v.dims)]),
        ),
      );
      const diffs: Record<string, number> = {};
      for (const [name, tensor] of Object.entries(out)) {
        const a = floats(tensor);
        const b = gpuOut[name];
        if (!a || !b || a.length !== b.length) continue;
        let max = 0;
        let scale = 0;
        for (let i = 0; i < a.length; i++) {
          max = Math.max(max, Math.abs(a[i]! - b[i]!));
          scale = Math.max(scale, Math.abs(a[i]!));
        }
        diffs[name] = Number(max.toPrecision(3));
        diffs[`${name}:maxAbs`] = Number(scale.toPrecision(3));
      }
      result.agreement.push({ graph, maxAbsDiff: diffs });
      await session.release();
    } catch (error) {
      result.agreement.push({ graph, error: (error as Error).message?.slice(0, 400) });
    }
    save();
  }
}
