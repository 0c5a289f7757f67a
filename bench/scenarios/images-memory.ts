import * as Comlink from 'comlink';
import { wasmThreads } from '../../src/common/backends/ort';
import type { BenchEnv, Scenario, ScenarioResult } from '../types';
import type { DiffusionStageApi } from '../support/diffusion-stage.worker';
import { FIXTURES, MODELS, vaani, vaaniOn, type Fixture } from './images';

type MemoryApi = {
  measureUserAgentSpecificMemory?(): Promise<{
    breakdown: { bytes: number; attribution: { url: string; scope: string }[] }[];
  }>;
};

/** MiB attributed to the workers whose URL contains `part` (WASM heaps only grow: ≈ their peak). */
async function workerMiB(part: string): Promise<number | undefined> {
  const measure = (performance as MemoryApi).measureUserAgentSpecificMemory;
  if (!measure || !crossOriginIsolated) return undefined;
  (globalThis as { gc?: () => void }).gc?.();
  const result = await measure.call(performance);
  let bytes = 0;
  for (const entry of result.breakdown) {
    const mine = entry.attribution.filter((where) => where.url.includes(part)).length;
    bytes += (entry.bytes * mine) / Math.max(1, entry.attribution.length);
  }
  return bytes / 2 ** 20;
}

/** Each stage alone in a fresh worker: created, run once at the fixture's size, measured. */
async function stagePeakMiB(fixture: Fixture, stage: string): Promise<number | undefined> {
  const worker = new Worker(new URL('../support/diffusion-stage.worker.ts', import.meta.url), { type: 'module' });
  try {
    await Comlink.wrap<DiffusionStageApi>(worker).run(
      new URL(`${MODELS}${fixture.name}/`, location.href).href,
      stage,
      wasmThreads(),
      fixture.side,
    );
    return await workerMiB('diffusion-stage');
  } finally {
    worker.terminate();
  }
}

/** The images worker's memory after one HD image (every stage run), sessions kept or stage by stage. */
async function pipelineMiB(name: string, sessions: 'resident' | 'stagewise'): Promise<number | undefined> {
  const ai = vaaniOn(name, sessions);
  try {
    await vaani(ai, 'hd').run();
    return await workerMiB('images.worker');
  } finally {
    ai.dispose();
  }
}

/**
 * Peak memory of the images runtime at each fixture's size (its own scenario: each
 * measureUserAgentSpecificMemory takes tens of seconds, so `images` times without it): each stage
 * alone in a fresh worker, and the images worker after an HD image with its sessions kept vs made
 * stage by stage.
 */
const imagesMemory: Scenario = async (bench: BenchEnv) => {
  const rows: ScenarioResult[] = [];
  for (const fixture of FIXTURES) {
    const { side } = fixture;
    const px = `${side}×${side}`;
    const notes = {
      threads: wasmThreads(),
      cores: navigator.hardwareConcurrency,
      size: `${side}x${side}`,
      backend: 'wasm',
    };
    const row = (id: string, metric: string, unit: string, value: number, baseline: ScenarioResult['baseline']) =>
      rows.push({ id, metric, unit, value, baseline, higherIsBetter: false, notes });
    for (const stage of ['text_encoder', 'unet', 'vae_decoder', 'vae_encoder', 'upscaler']) {
      bench.log(`memory: ${stage} alone at ${px} …`);
      const mib = await stagePeakMiB(fixture, stage);
      if (mib !== undefined)
        row(
          `${fixture.id}.memory.${stage}`,
          `peak MiB of a worker running ${stage} alone at ${px} (session + one run; ONNX Runtime's WASM heap included)`,
          'MiB',
          mib,
          null,
        );
    }
    bench.log(`memory: whole pipeline at ${px}, kept vs stage by stage …`);
    const resident = await pipelineMiB(fixture.name, 'resident');
    const stagewise = await pipelineMiB(fixture.name, 'stagewise');
    if (resident !== undefined && stagewise !== undefined)
      row(
        `${fixture.id}.memory.stagewise`,
        `images worker's MiB after an HD ${px} image, sessions made and released stage by stage`,
        'MiB',
        stagewise,
        { name: 'every session kept (resident)', value: resident },
      );
  }
  return rows;
};

export default imagesMemory;
