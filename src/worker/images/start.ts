import { loadOrt } from '../../common/backends/ort';
import { backendAttempts, type RuntimeBackend } from '../../common/backends/plan';
import { probeWebGpu } from '../../common/backends/webgpu';
import { EngineError } from '../../protocol/errors';
import type { FileLoader, LoadOptions } from '../../protocol/weights';
import type { Backend } from '../../protocol/options';
import { loadDiffusion, stageGraph } from './load';
import type { DiffusionPipeline } from './pipeline';
import type { SessionPolicy } from './stages';

/**
 * The most ONNX bytes held at once on WASM: wasm32 has 4 GiB of address space and ONNX Runtime
 * holds each graph's weights once more while it builds a session, so graphs past 1.5 GiB do not
 * fit beside their activations. Past it in sum, the stages run one at a time; a single graph past
 * it (SD-Turbo fp16's UNet, ≈ 1.7 GB) does not run on WASM at all.
 */
export const WASM_GRAPH_BUDGET = 1.5 * 2 ** 30;
const STAGES = ['text_encoder', 'unet', 'vae_decoder'];

export interface StartedDiffusion {
  pipeline: DiffusionPipeline;
  backend: RuntimeBackend;
}

/**
 * `auto`'s choice: every session kept while the graphs fit (WASM: their sum within the budget;
 * WebGPU: within half the device memory the browser reports), else stage by stage.
 */
export function sessionPolicy(
  backend: RuntimeBackend,
  graphBytes: number[],
  deviceMemoryGiB = (globalThis.navigator as { deviceMemory?: number } | undefined)?.deviceMemory,
): SessionPolicy {
  const total = graphBytes.reduce((sum, bytes) => sum + bytes, 0);
  const room = backend === 'wasm' ? WASM_GRAPH_BUDGET : deviceMemoryGiB ? (deviceMemoryGiB * 2 ** 30) / 2 : Infinity;
  return total > room ? 'stagewise' : 'resident';
}

/**
 * Starts a diffusers export on WebGPU when there is one, else on WASM when its largest graph fits
 * (all kept when the sum fits; stage by stage otherwise, or when `sessions` says so).
 */
export async function startDiffusion(
  loader: FileLoader,
  request: { backend: Backend; threads?: number; sessions?: SessionPolicy | 'auto'; upscaleMemory?: number },
  options: LoadOptions = {},
): Promise<StartedDiffusion> {
  const gpu = request.backend === 'wasm' ? undefined : await probeWebGpu();
  const backend = backendAttempts(request.backend, gpu)[0]!.backend;
  const chosen = request.sessions ?? 'auto';
  let policy: SessionPolicy = chosen === 'auto' ? 'resident' : chosen;
  if (backend === 'wasm' || chosen === 'auto') {
    // A graph's size is its file and its external data together.
    const graphs = await Promise.all(STAGES.map((stage) => stageGraph(loader, stage, options)));
    const sizes = graphs.map(({ graph, externalData }) =>
      externalData.reduce((sum, file) => sum + file.data.byteLength, graph.byteLength),
    );
    const largest = Math.max(...sizes);
    if (backend === 'wasm' && largest > WASM_GRAPH_BUDGET)
      throw new EngineError(
        'unavailable',
        `This image model's largest graph is ${(largest / 2 ** 30).toFixed(1)} GiB, more than WASM can hold (${WASM_GRAPH_BUDGET / 2 ** 30} GiB) even one stage at a time: it needs a browser with WebGPU, or a remote (createVaani({ remote: { baseURL, apiKey } })) to forward images to.`,
        'model_too_large_for_wasm',
        'model',
      );
    if (chosen === 'auto') policy = sessionPolicy(backend, sizes);
  }
  const ort = await loadOrt(backend === 'webgpu', request.threads);
  return { pipeline: await loadDiffusion(ort, loader, backend, options, policy, request.upscaleMemory), backend };
}
