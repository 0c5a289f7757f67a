import { loadOrt, type Ort } from '../../common/backends/ort';
import { backendAttempts, type RuntimeBackend } from '../../common/backends/plan';
import { probeWebGpu } from '../../common/backends/webgpu';
import { isStoreFull } from '../../common/weights';
import type { FileLoader, LoadOptions } from '../../protocol/weights';
import type { Backend } from '../../protocol/options';
import { findGraphFiles, loadExternalData } from '../../common/layouts/onnx';
import type { BatchLimits } from './batches';
import {
  poolingFolder,
  readEncoderConfig,
  type EncoderConfig,
  type EncoderFiles,
  type EncoderOverride,
} from './config';
import { Encoder } from './encoder';
import { EncoderTokenizer } from './tokenizer';

/** An embedding model ready to run. */
export interface LoadedEncoder {
  encoder: Encoder;
  tokenizer: EncoderTokenizer;
  config: EncoderConfig;
  /** Width of the vectors (measured on a probe input). */
  dimensions: number;
  backend: RuntimeBackend;
  dtype: string;
}

export interface EncoderLoadRequest {
  backend: Backend;
  dtype?: string;
  threads?: number;
  override?: EncoderOverride;
  limits?: BatchLimits;
  /** onnxruntime to use (tests pass onnxruntime-node); default onnxruntime-web. */
  ort?: Ort;
}

type Json = Record<string, unknown>;
const utf8 = new TextDecoder();
const json = async (loader: FileLoader, file: string, options: LoadOptions) =>
  JSON.parse(utf8.decode(await loader.load(file, options))) as Json;
const optional = async <T = Json>(loader: FileLoader, file: string, options: LoadOptions) =>
  (await loader.has(file, options)) ? ((await json(loader, file, options)) as T) : undefined;

/** The sentence-transformers files beside the graph (each optional). */
export async function readEncoderFiles(loader: FileLoader, options: LoadOptions = {}): Promise<EncoderFiles> {
  const [config, tokenizerConfig, modules, sentenceBert, sentenceTransformers] = await Promise.all([
    optional(loader, 'config.json', options),
    optional(loader, 'tokenizer_config.json', options),
    optional<Json[]>(loader, 'modules.json', options),
    optional(loader, 'sentence_bert_config.json', options),
    optional(loader, 'config_sentence_transformers.json', options),
  ]);
  const pooling = await optional(loader, `${poolingFolder(modules)}/config.json`, options);
  return { config, tokenizerConfig, modules, pooling, sentenceBert, sentenceTransformers };
}

/** The model's tokenizer and settings without its graph (what the data worker chunks with). */
export async function loadEncoderTokenizer(
  loader: FileLoader,
  override: EncoderOverride | undefined,
  options: LoadOptions = {},
): Promise<{ files: EncoderFiles; config: EncoderConfig; tokenizer: EncoderTokenizer }> {
  const [files, tokenizerJson] = await Promise.all([
    readEncoderFiles(loader, options),
    json(loader, 'tokenizer.json', options),
  ]);
  const config = readEncoderConfig(files, override);
  return {
    files,
    config,
    tokenizer: new EncoderTokenizer(tokenizerJson, files.tokenizerConfig ?? {}, config.maxLength),
  };
}

/** Reads the model's files and starts the graph on the first backend that works. */
export async function loadEncoder(
  loader: FileLoader,
  request: EncoderLoadRequest,
  options: LoadOptions = {},
): Promise<LoadedEncoder> {
  const { files, config, tokenizer } = await loadEncoderTokenizer(loader, request.override, options);
  const gpu = request.ort || request.backend === 'wasm' ? undefined : await probeWebGpu();
  const attempts = request.ort
    ? [{ backend: 'wasm' as const, dtypes: request.dtype ? [request.dtype] : ['fp32'] }]
    : backendAttempts(request.backend, gpu, request.dtype);
  const ort =
    request.ort ??
    (await loadOrt(
      attempts.some((attempt) => attempt.backend === 'webgpu'),
      request.threads,
    ));
  const kvShape = {
    heads: Number(files.config?.num_key_value_heads) || undefined,
    headDim:
      Number(files.config?.head_dim) ||
      Number(files.config?.hidden_size) / Number(files.config?.num_attention_heads) ||
      undefined,
  };
  const failures: string[] = [];
  for (const attempt of attempts) {
    try {
      const found = await findGraphFiles(loader, attempt.dtypes, options, 'encoder');
      const [graph, externalData] = await Promise.all([
        loader.load(found.graph, options),
        loadExternalData(loader, found, options),
      ]);
      const session = await ort.InferenceSession.create(graph, {
        executionProviders: request.ort ? undefined : [attempt.backend],
        externalData,
        graphOptimizationLevel: 'all',
      });
      const encoder = new Encoder(ort, session, config, tokenizer.padId, request.limits, kvShape);
      const probe = await encoder.embed([tokenizer.encode('a').ids]);
      return {
        encoder,
        tokenizer,
        config,
        dimensions: probe.vectors[0]!.length,
        backend: attempt.backend,
        dtype: found.dtype,
      };
    } catch (error) {
      // No other backend or dtype would fit either.
      if (isStoreFull(error)) throw error;
      failures.push(`${attempt.backend}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  throw new Error(`Could not start the embedding model (${failures.join('; ')}).`);
}
