import { startBare } from '../support/chat-bare';
import type { BareBuild, BareTiming } from '../support/chat-bare.worker';
import { median, order } from '../support/rounds';
import { row } from '../support/rows';
import type { Scenario, ScenarioResult } from '../types';

/**
 * What a chat worker that may try WebGPU costs on the CPU: onnxruntime-web's builds side by side on
 * WASM — `wasm` (what a WASM-only worker loads), `jsep` (the JSEP WebGPU build), `native` (the C++
 * WebGPU EP, asyncify) and `jspi` (that EP on JavaScript Promise Integration, where the browser has
 * it). Such a worker falls back to WASM on the build it loaded. The bare loop (bench/support/
 * chat-bare.worker.ts) on the same q8 file (Qwen2.5-0.5B shapes, 24 layers), the same threads, a
 * 128-token prompt and DECODE_TOKENS steps; one build loaded at a time, or with CHAT_BUILDS_RESIDENT=1
 * all of them at once, taking turns (rows `….resident`).
 */
const POINTER = '/test/.fixtures/bench-chat-builds.json';
const FILE = 'onnx/model_quantized.onnx';
const DECODE_TOKENS = 17;
const CONTEXT = 128;
const ROUNDS = 5;
/** Answers per visit when one build is loaded at a time (two visits each). */
const RUNS_EACH = 3;
const PAUSE_MS = 1000;
const BUILDS: BareBuild[] = ['wasm', 'jsep', 'native', 'jspi'];

interface Bare {
  build: BareBuild;
  run(): Promise<BareTiming>;
  dispose(): void;
}

async function bare(base: string, build: BareBuild, threads: number): Promise<Bare> {
  const loop = await startBare({ base, graph: FILE, externalData: [`${FILE}_data`], threads, build }, build);
  await loop.run({ promptTokens: 16, steps: 2 });
  return {
    build,
    run: () => loop.run({ promptTokens: CONTEXT, steps: DECODE_TOKENS }),
    dispose: () => loop.terminate(),
  };
}

const chatBuilds: Scenario = async (env) => {
  const pointer = await fetch(POINTER);
  if (!pointer.ok)
    throw new Error(`${POINTER} is missing: run bench/prepare/chat-builds.ts first (npm run bench does).`);
  const {
    url: base,
    threads: counts = [2, 1],
    resident = false,
  } = (await pointer.json()) as { url: string; threads?: number[]; resident?: boolean };
  const jspi = 'Suspending' in WebAssembly;
  const builds = BUILDS.filter((build) => build !== 'jspi' || jspi);
  const rows: ScenarioResult[] = [];
  const suffix = resident ? '.resident' : '';
  for (const threads of counts) {
    const steps = new Map<BareBuild, number[][]>(builds.map((b) => [b, []]));
    const prefill = new Map<BareBuild, number[]>(builds.map((b) => [b, []]));
    const time = async ({ build, run }: Bare, round: number) => {
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
      const timing = await run();
      steps.get(build)!.push(timing.stepsMs);
      prefill.get(build)!.push(timing.prefillMs);
      env.log(
        `${threads} threads${resident ? ', all loaded' : ''}, round ${round + 1}: ${build} prefill ` +
          `${timing.prefillMs.toFixed(0)} ms, median step ${median(timing.stepsMs).toFixed(1)} ms`,
      );
    };
    if (resident) {
      // Every build loaded at once, taking turns: what a page with several engines in it sees.
      const bares: Bare[] = [];
      for (const build of builds) bares.push(await bare(base, build, threads));
      for (let round = 0; round < ROUNDS; round++)
        for (const i of order(bares.length, round)) await time(bares[i]!, round);
      for (const b of bares) b.dispose();
    } else {
      // One build loaded at a time (no other build's idle worker and threads beside the running one),
      // in the order A B C D, then D C B A, RUNS_EACH answers a visit.
      for (const build of [...builds, ...[...builds].reverse()]) {
        const loaded = await bare(base, build, threads);
        for (let i = 0; i < RUNS_EACH; i++) await time(loaded, steps.get(build)!.length);
        loaded.dispose();
      }
    }
    /** The round with the lowest median step (rounds.ts `best`), and the shortest prefill. */
    const decode = (build: BareBuild) => 1000 / Math.min(...steps.get(build)!.map(median));
    const prefillTps = (build: BareBuild) => CONTEXT / (Math.min(...prefill.get(build)!) / 1000);
    const notes = {
      model: `${base}${FILE} (Qwen2.5-0.5B shapes: 24 layers, random weights)`,
      backend: 'wasm',
      threads,
      cores: navigator.hardwareConcurrency,
      promptTokens: CONTEXT,
      decodeTokens: DECODE_TOKENS,
      rounds: resident
        ? `${ROUNDS}, all builds loaded, in turn`
        : `${RUNS_EACH} a visit, one build loaded at a time, two visits (A B C D D C B A)`,
      jspi,
      medianStepMs: Object.fromEntries(builds.map((b) => [b, steps.get(b)!.map((s) => +median(s).toFixed(1))])),
      prefillMs: Object.fromEntries(builds.map((b) => [b, prefill.get(b)!.map((ms) => Math.round(ms))])),
      method: 'bare loop per build; decode from the answer with the lowest median step, prefill the shortest',
    };
    const baseline = (metric: (b: BareBuild) => number) => ({
      name: 'the WASM-only build (what a WASM-only worker loads), same loop',
      value: metric('wasm'),
    });
    const threadsText = `${threads} thread${threads > 1 ? 's' : ''}`;
    const against = (what: string, metric: string, figure: (b: BareBuild) => number, build: BareBuild) =>
      row(
        `chat-builds.t${threads}.${what}.${build}${suffix}`,
        `${metric} on onnxruntime-web's ${build} build, ${threadsText}`,
        'tokens/s',
        figure(build),
        baseline(figure),
        true,
        notes,
      );
    for (const build of builds.filter((b) => b !== 'wasm'))
      rows.push(
        against('decode', `WASM decode at ${CONTEXT} tokens`, decode, build),
        against('prefill', `WASM prefill of ${CONTEXT} tokens`, prefillTps, build),
      );
  }
  return rows;
};

export default chatBuilds;
