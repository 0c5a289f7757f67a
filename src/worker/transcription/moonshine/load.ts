import { loadOrt, type Ort } from '../../../common/backends/ort';
import type { FileLoader, LoadOptions } from '../../../protocol/weights';
import type { Backend } from '../../../protocol/options';
import { Moonshine, type MoonshineSessions } from './model';
import { readTokens } from './tokens';

/** The graphs of sherpa-onnx's Moonshine layout; each may carry `.int8` before `.onnx` (sherpa-onnx's own releases). */
export const MOONSHINE_GRAPHS = ['preprocess', 'encode', 'uncached_decode', 'cached_decode'] as const;
export const MOONSHINE_FILES = [...MOONSHINE_GRAPHS.map((name) => `${name}.onnx`), 'tokens.txt'];

export interface StartedMoonshine {
  model: Moonshine;
  backend: 'wasm';
}

/** A graph's file: `name.onnx`, else `name.int8.onnx`. */
async function graphFile(loader: FileLoader, name: string, options: LoadOptions): Promise<Uint8Array> {
  if (!(await loader.has(`${name}.onnx`, options)) && (await loader.has(`${name}.int8.onnx`, options)))
    return loader.load(`${name}.int8.onnx`, options);
  return loader.load(`${name}.onnx`, options);
}

/** Sessions and tokens of one folder in the Moonshine layout (`ort`: onnxruntime-web, or -node in tests). */
export async function startMoonshine(
  ort: Ort,
  loader: FileLoader,
  options: LoadOptions = {},
  provider = 'wasm',
): Promise<Moonshine> {
  const [tokens, ...graphs] = await Promise.all([
    loader.load('tokens.txt', options),
    ...MOONSHINE_GRAPHS.map((name) => graphFile(loader, name, options)),
  ]);
  const sessions = await Promise.all(
    graphs.map((graph) =>
      ort.InferenceSession.create(graph, { executionProviders: [provider], graphOptimizationLevel: 'all' }),
    ),
  );
  const [preprocess, encode, uncached, cached] = sessions as [
    MoonshineSessions['preprocess'],
    MoonshineSessions['encode'],
    MoonshineSessions['uncached'],
    MoonshineSessions['cached'],
  ];
  return new Moonshine(ort, { preprocess, encode, uncached, cached }, readTokens(new TextDecoder().decode(tokens)));
}

/**
 * Loads a Moonshine-layout folder on WASM: the exports are 4-bit/8-bit graphs whose decoder loop
 * reads every step's logits on the CPU, and a 30 MB model needs no GPU.
 */
export async function loadMoonshine(
  loader: FileLoader,
  request: { backend: Backend; threads?: number },
  options: LoadOptions = {},
): Promise<StartedMoonshine> {
  const ort = await loadOrt(false, request.threads);
  return { model: await startMoonshine(ort, loader, options), backend: 'wasm' };
}
