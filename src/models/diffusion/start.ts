import { loadOrt } from '../../backends/ort';
import { backendAttempts, type RuntimeBackend } from '../../backends/plan';
import { probeWebGpu } from '../../backends/webgpu';
import { EngineError } from '../../protocol/errors';
import type { FileLoader, LoadOptions } from '../../store';
import type { Backend } from '../../types';
import { loadDiffusion } from './load';
import type { DiffusionPipeline } from './pipeline';

/**
 * The most ONNX bytes (text encoder + UNet + VAE decoder) started on WASM: wasm32 has 4 GiB of
 * address space and ONNX Runtime holds each graph's weights once more while it builds a session,
 * so graphs past 1.5 GiB do not fit beside their activations. SD-Turbo fp16 (≈ 2.6 GB) is past it.
 */
export const WASM_GRAPH_BUDGET = 1.5 * 2 ** 30;
const STAGES = ['text_encoder', 'unet', 'vae_decoder'];

export interface StartedDiffusion {
  pipeline: DiffusionPipeline;
  backend: RuntimeBackend;
}

/** Starts a diffusers export on WebGPU when there is one, else on WASM when it fits. */
export async function startDiffusion(
  loader: FileLoader,
  request: { backend: Backend; threads?: number },
  options: LoadOptions = {},
): Promise<StartedDiffusion> {
  const gpu = request.backend === 'wasm' ? undefined : await probeWebGpu();
  const backend = backendAttempts(request.backend, gpu)[0]!.backend;
  if (backend === 'wasm') {
    const graphs = await Promise.all(STAGES.map((stage) => loader.load(`${stage}/model.onnx`, options)));
    const bytes = graphs.reduce((sum, graph) => sum + graph.byteLength, 0);
    if (bytes > WASM_GRAPH_BUDGET)
      throw new EngineError(
        'unavailable',
        `This image model's graphs are ${(bytes / 2 ** 30).toFixed(1)} GiB, more than WASM can hold (${WASM_GRAPH_BUDGET / 2 ** 30} GiB): it needs a browser with WebGPU, or a remote (createVaani({ remote: { baseURL, apiKey } })) to forward images to.`,
        'model_too_large_for_wasm',
        'model',
      );
  }
  const ort = await loadOrt(backend === 'webgpu', request.threads);
  return { pipeline: await loadDiffusion(ort, loader, backend, options), backend };
}
