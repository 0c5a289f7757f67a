import { loadOrt, type Ort, type OrtSession } from '../../../common/backends/ort';
import { QUANTISED_DTYPES, type RuntimeBackend } from '../../../common/backends/plan';
import { probeWebGpu } from '../../../common/backends/webgpu';
import { isStoreFull } from '../../../common/weights';
import type { FileLoader, LoadOptions } from '../../../protocol/weights';
import type { Backend } from '../../../protocol/options';
import { NemoMel } from './features';
import { findIndicLayout, loadEncoder, RNNT_GRAPHS, type IndicLayout } from '../../../common/layouts/indic-conformer';
import { IndicConformer, type IndicConformerConfig, type RnntSessions } from './model';
import { IndicVocabulary } from './vocab';

export interface IndicLoadRequest {
  backend: Backend;
  /** A dtype fixed by the source (an int8 copy); otherwise the best the source has for the backend. */
  dtype?: string;
  threads?: number;
}

export interface StartedIndicConformer {
  model: IndicConformer;
  backend: RuntimeBackend;
  dtype: string;
}

type Config = IndicConformerConfig & { blank?: number };

/** Dynamically quantised graphs (MatMulInteger) run on WASM; WebGPU takes float weights. */
const DTYPES: Record<RuntimeBackend, readonly string[]> = { wasm: ['int8', 'q8', 'fp32'], webgpu: ['fp32', 'fp16'] };

const utf8 = new TextDecoder();
const readJson = async (loader: FileLoader, file: string, options: LoadOptions) =>
  JSON.parse(utf8.decode(await loader.load(file, options))) as unknown;

/** A session whose outputs come back to the CPU (decoding reads every output). */
const session = (
  ort: Ort,
  backend: RuntimeBackend,
  graph: Uint8Array,
  externalData: { path: string; data: Uint8Array }[] = [],
) =>
  ort.InferenceSession.create(graph, {
    executionProviders: [backend],
    externalData,
    graphOptimizationLevel: 'all',
  });

/** config.json's values with the published script's defaults (SOS 5632, 10 symbols a frame, 2 × 640 LSTM). */
export function readIndicConfig(json: unknown): Config {
  const config = (typeof json === 'object' && json !== null ? json : {}) as Record<string, unknown>;
  const number = (key: string) => (typeof config[key] === 'number' ? (config[key] as number) : undefined);
  const frame = number('FRAME_DURATION_MS');
  return {
    blank: number('BLANK_ID'),
    sos: number('SOS') ?? 5632,
    maxSymbols: number('RNNT_MAX_SYMBOLS') ?? 10,
    predLayers: number('PRED_RNN_LAYERS') ?? 2,
    predHidden: number('PRED_RNN_HIDDEN_DIM') ?? 640,
    // The published script reads this key as seconds per frame (default 0.04); a value above 1 is taken as ms.
    frameSeconds: frame === undefined ? undefined : frame > 1 ? frame / 1000 : frame,
  };
}

function rnntSessions(
  ort: Ort,
  loader: FileLoader,
  layout: IndicLayout,
  backend: RuntimeBackend,
  options: LoadOptions,
) {
  const graph = async (name: string) =>
    session(ort, backend, await loader.load(`${layout.prefix}${name}.onnx`, options));
  const postNets = new Map<string, Promise<OrtSession>>();
  return Promise.all(RNNT_GRAPHS.map(graph)).then(([decoder, jointEnc, jointPred, preNet]): RnntSessions => ({
    decoder: decoder!,
    jointEnc: jointEnc!,
    jointPred: jointPred!,
    preNet: preNet!,
    postNet(language) {
      let net = postNets.get(language);
      if (!net) {
        net = graph(`joint_post_net_${language}`);
        net.catch(() => postNets.delete(language));
        postNets.set(language, net);
      }
      return net;
    },
  }));
}

/** Sessions, vocabulary and features for one layout on one backend (`ort`: onnxruntime-web, or -node in tests). */
export async function startIndicConformer(
  ort: Ort,
  loader: FileLoader,
  layout: IndicLayout,
  backend: RuntimeBackend,
  config: Config,
  options: LoadOptions = {},
): Promise<IndicConformer> {
  const [vocab, masks, encoderFiles, ctcGraph] = await Promise.all([
    readJson(loader, `${layout.prefix}vocab.json`, options),
    readJson(loader, `${layout.prefix}language_masks.json`, options),
    loadEncoder(loader, layout, options),
    loader.load(`${layout.prefix}ctc_decoder.onnx`, options),
  ]);
  const encoder = await session(ort, backend, encoderFiles.graph, encoderFiles.externalData);
  const ctc = await session(ort, backend, ctcGraph);
  const rnnt = layout.rnnt ? await rnntSessions(ort, loader, layout, backend, options) : undefined;
  const vocabulary = new IndicVocabulary(vocab, masks, config.blank);
  return new IndicConformer(ort, new NemoMel(), vocabulary, config, encoder, ctc, rnnt);
}

export async function readConfig(loader: FileLoader, options: LoadOptions = {}): Promise<Config> {
  return readIndicConfig(
    (await loader.has('config.json', options)) ? await readJson(loader, 'config.json', options) : {},
  );
}

/** Loads an IndicConformer source (AI4Bharat's layout or an int8 copy) on the first backend that works. */
export async function loadIndicConformer(
  loader: FileLoader,
  request: IndicLoadRequest,
  options: LoadOptions = {},
): Promise<StartedIndicConformer> {
  const gpu = request.backend === 'wasm' ? undefined : await probeWebGpu();
  if (request.backend === 'webgpu' && !gpu)
    throw new Error("backend 'webgpu' was asked for but this browser has no WebGPU adapter.");
  const backends: RuntimeBackend[] =
    request.backend === 'webgpu' ? ['webgpu'] : request.backend === 'auto' && gpu ? ['webgpu', 'wasm'] : ['wasm'];
  const ort = await loadOrt(backends.includes('webgpu'), request.threads);
  const config = await readConfig(loader, options);
  const failures: string[] = [];
  for (const backend of backends) {
    const dtypes = (request.dtype ? [request.dtype] : DTYPES[backend]).filter(
      (d) => backend === 'wasm' || !QUANTISED_DTYPES.has(d),
    );
    for (const dtype of dtypes) {
      try {
        const layout = await findIndicLayout(loader, dtype, request.dtype !== undefined, options);
        if (!layout) continue;
        return { model: await startIndicConformer(ort, loader, layout, backend, config, options), backend, dtype };
      } catch (error) {
        // No other backend or dtype would fit either.
        if (isStoreFull(error)) throw error;
        failures.push(`${backend}/${dtype}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    failures.push(`${backend}: no encoder for ${dtypes.join(', ')} under assets/ or the root`);
  }
  throw new Error(`Could not start the IndicConformer model (${failures.join('; ')}).`);
}
