import { createSession, loadOrt, type Ort } from '../../common/backends/ort';
import { backendAttempts, type RuntimeBackend } from '../../common/backends/plan';
import { probeWebGpu } from '../../common/backends/webgpu';
import { isStoreFull } from '../../common/weights';
import type { FileLoader, LoadOptions } from '../../protocol/weights';
import { ChatTemplate, pickTemplate, type TemplateSource } from '../../common/text/chat-template';
import { Grammars } from '../../common/text/grammar/constraint';
import { grammarVocabulary } from '../../common/text/grammar/vocabulary';
import { TextTokenizer } from '../../common/text/tokenizer';
import type { Backend } from '../../protocol/options';
import { readConfig, type Json, type LlmConfig } from './config';
import { type CachedDecoder, KvDecoder, layoutOf } from './decoder';
import { CapturedDecoder, type CaptureRequest } from './captured';
import { findGraphFiles, loadExternalData } from '../../common/layouts/onnx';
import { graphOperators } from './graph-ops';
import { logitsToKeep } from './logits-to-keep';

/** A decoder LLM ready to generate: tokenizer, chat template, config and a KV-cached session. */
export interface LoadedLlm {
  tokenizer: TextTokenizer;
  /** Picks the template for a request (some models ship a separate one for tool use). */
  template(withTools: boolean): ChatTemplate;
  config: LlmConfig;
  decoder: CachedDecoder;
  /** Constrained decoding over the model's own vocabulary (compiled on first use). */
  grammars: Grammars;
  backend: RuntimeBackend;
  dtype: string;
}

export interface LoadRequest {
  backend: Backend;
  /** A dtype fixed by the model source; otherwise the best the source has for the backend. */
  dtype?: string;
  /** WASM threads (see wasmThreads). */
  threads?: number;
  /** On WebGPU, decode by graph capture with a cache of this many tokens (captured.ts), where the export allows. */
  capture?: number;
}

const utf8 = new TextDecoder();
const json = async (loader: FileLoader, file: string, options: LoadOptions) =>
  JSON.parse(utf8.decode(await loader.load(file, options))) as Json;
const optionalJson = async (loader: FileLoader, file: string, options: LoadOptions) =>
  (await loader.has(file, options)) ? json(loader, file, options) : undefined;

async function templateSource(
  loader: FileLoader,
  tokenizerConfig: Json,
  options: LoadOptions,
): Promise<TemplateSource> {
  if (tokenizerConfig.chat_template) return tokenizerConfig.chat_template as TemplateSource;
  if (await loader.has('chat_template.jinja', options))
    return utf8.decode(await loader.load('chat_template.jinja', options));
  throw new Error('The model has no chat template (tokenizer_config.json chat_template or chat_template.jinja).');
}

/**
 * A captured decoder with a cache of at most the model's context, or undefined (with a console
 * warning saying why) where this export or runtime cannot be captured: the caller decodes as usual.
 */
async function capturedDecoder(ort: Ort, request: CaptureRequest): Promise<CapturedDecoder | undefined> {
  try {
    return await CapturedDecoder.start(ort, {
      ...request,
      capacity: Math.min(request.capacity, request.config.contextLength),
    });
  } catch (error) {
    if (isStoreFull(error)) throw error;
    console.warn(
      `Vaani: chat decodes without graph capture: ${error instanceof Error ? error.message : String(error)}`,
    );
    return undefined;
  }
}

/** Loads the text files and starts the decoder on the first backend that works. */
export async function loadLlm(loader: FileLoader, request: LoadRequest, options: LoadOptions = {}): Promise<LoadedLlm> {
  const [tokenizerJson, tokenizerConfig, config, generation] = await Promise.all([
    json(loader, 'tokenizer.json', options),
    json(loader, 'tokenizer_config.json', options),
    optionalJson(loader, 'config.json', options),
    optionalJson(loader, 'generation_config.json', options),
  ]);
  const genai = config ? undefined : await optionalJson(loader, 'genai_config.json', options);
  const tokenizer = new TextTokenizer(tokenizerJson, tokenizerConfig);
  const llmConfig = readConfig({
    config,
    genai,
    generation,
    tokenizerConfig,
    eosTokenId: tokenizer.id(tokenizer.eosToken),
  });
  const source = await templateSource(loader, tokenizerConfig, options);
  const templates = new Map<string, ChatTemplate>();
  const template = (withTools: boolean) => {
    const text = pickTemplate(source, withTools);
    if (!templates.has(text)) templates.set(text, new ChatTemplate(text));
    return templates.get(text)!;
  };

  const gpu = request.backend === 'wasm' ? undefined : await probeWebGpu();
  const attempts = backendAttempts(request.backend, gpu, request.dtype);
  const ort = await loadOrt(
    attempts.some((attempt) => attempt.backend === 'webgpu'),
    request.threads,
  );
  const failures: string[] = [];
  for (const attempt of attempts) {
    try {
      const files = await findGraphFiles(loader, attempt.dtypes, options);
      // eslint-disable-next-line prefer-const -- `loaded` is dropped below
      let [loaded, externalData] = await Promise.all([
        loader.load(files.graph, options),
        loadExternalData(loader, files, options),
      ]);
      const operators = graphOperators(loaded);
      const captured =
        attempt.backend === 'webgpu' && request.capture
          ? await capturedDecoder(ort, {
              graph: loaded,
              externalData,
              config: llmConfig,
              operators,
              capacity: request.capture,
            })
          : undefined;
      let decoder: CachedDecoder;
      if (captured) decoder = captured;
      else {
        // A prompt's run computes logits for its last position only, where the export computes them all.
        // An edited copy replaces the export's bytes (weights inside a graph are copied): drop them.
        const graph = logitsToKeep(loaded) ?? loaded;
        loaded = new Uint8Array(0);
        const session = await createSession(ort, { backend: attempt.backend, graph, externalData });
        decoder = new KvDecoder(ort, session, layoutOf(session, llmConfig, operators, attempt.backend));
      }
      if (attempt.backend === 'webgpu' && decoder.layout.cacheType === 'float16' && !gpu?.f16) {
        await decoder.release();
        throw new Error(`${files.graph} computes in float16 but this WebGPU adapter lacks shader-f16`);
      }
      const grammars = new Grammars((size) => grammarVocabulary(tokenizerJson, size), llmConfig.eosIds);
      return {
        tokenizer,
        template,
        config: captured ? { ...llmConfig, contextLength: captured.capacity } : llmConfig,
        decoder,
        grammars,
        backend: attempt.backend,
        dtype: files.dtype,
      };
    } catch (error) {
      // No other backend or dtype would fit either.
      if (isStoreFull(error)) throw error;
      failures.push(`${attempt.backend}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  throw new Error(`Could not start the model (${failures.join('; ')}).`);
}
