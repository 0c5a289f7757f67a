import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type {
  EmbeddingModelV4,
  ImageModelV4,
  JSONObject,
  LanguageModelV4,
  LanguageModelV4CallOptions,
  ProviderV4,
  SharedV4ProviderOptions,
  SharedV4Warning,
  SpeechModelV4,
  TranscriptionModelV4,
} from '@ai-sdk/provider';
import type { Vaani } from '../index';

/**
 * `vaani/ai-sdk`: an AI SDK provider (specification v4) whose models call the in-page `/v1` service
 * through `ai.fetch`, so nothing leaves the page unless Vaani's own routing sends it. Chat,
 * embeddings and images ride `@ai-sdk/openai-compatible` (it reads `reasoning_content` and passes
 * `providerOptions.vaani` fields into the body); transcription and speech ride `@ai-sdk/openai`.
 * The thin wrappers below hand Vaani the settings it honours that those packages would drop, and
 * warn about the ones it cannot honour instead of letting the service ignore them.
 */

export interface VaaniProviderSettings {
  /** Sent as `Authorization: Bearer …`; the in-page service accepts any non-empty key. Default `vaani`. */
  apiKey?: string;
  /** Headers added to every request. */
  headers?: Record<string, string>;
}

export interface VaaniProvider extends ProviderV4 {
  /** A chat model on `/chat/completions` (`chat-v2`, `chat-v2-pro`, …). */
  (modelId: string): LanguageModelV4;
  languageModel(modelId: string): LanguageModelV4;
  embeddingModel(modelId: string): EmbeddingModelV4;
  imageModel(modelId: string): ImageModelV4;
  transcriptionModel(modelId: string): TranscriptionModelV4;
  speechModel(modelId: string): SpeechModelV4;
}

/** Transcription options Vaani reads (`providerOptions.vaani`, or `.openai`); others are warned about. */
const TRANSCRIPTION_OPTIONS = new Set([
  'language',
  'prompt',
  'temperature',
  'timestampGranularities',
  'responseFormat',
  'chunkingStrategy',
]);

const withOptions = (options: SharedV4ProviderOptions | undefined, key: string, extra: JSONObject) => ({
  ...options,
  [key]: { ...options?.[key], ...extra },
});

/** The `/v1` service of `ai` as an AI SDK provider: `streamText({ model: vaani('chat-v2'), … })`. */
export function createVaaniProvider(
  ai: Pick<Vaani, 'fetch' | 'baseURL'>,
  settings: VaaniProviderSettings = {},
): VaaniProvider {
  const common = {
    name: 'vaani',
    baseURL: ai.baseURL,
    apiKey: settings.apiKey ?? 'vaani',
    headers: settings.headers,
    fetch: (input: RequestInfo | URL, init?: RequestInit) => ai.fetch(input, init),
  };
  const compatible = createOpenAICompatible({ ...common, supportsStructuredOutputs: true, includeUsage: true });
  const openai = createOpenAI(common);

  /** `topK` is Vaani's `top_k` extension: moved where the compatible provider passes it on. */
  const topK = (options: LanguageModelV4CallOptions): LanguageModelV4CallOptions =>
    options.topK == null
      ? options
      : {
          ...options,
          topK: undefined,
          providerOptions: withOptions(options.providerOptions, 'vaani', { top_k: options.topK }),
        };

  const languageModel = (modelId: string): LanguageModelV4 => {
    const model = compatible.chatModel(modelId);
    return {
      specificationVersion: 'v4',
      provider: model.provider,
      modelId,
      supportedUrls: model.supportedUrls,
      doGenerate: (options) => model.doGenerate(topK(options)),
      doStream: (options) => model.doStream(topK(options)),
    };
  };

  const imageModel = (modelId: string): ImageModelV4 => {
    const model = compatible.imageModel(modelId);
    return {
      specificationVersion: 'v4',
      provider: model.provider,
      modelId,
      // Vaani's `n` is 1–4: the AI SDK splits larger requests.
      maxImagesPerCall: 4,
      // `seed` is Vaani's extension (the same seed, the same pixels), which the compatible provider drops.
      doGenerate: ({ seed, ...options }) =>
        model.doGenerate({
          ...options,
          seed: undefined,
          providerOptions:
            seed == null ? options.providerOptions : withOptions(options.providerOptions, 'vaani', { seed }),
        }),
    };
  };

  const transcriptionModel = (modelId: string): TranscriptionModelV4 => {
    const model = openai.transcription(modelId);
    return {
      specificationVersion: 'v4',
      provider: model.provider,
      modelId,
      async doGenerate(options) {
        const warnings: SharedV4Warning[] = [];
        const asked = { ...options.providerOptions?.openai, ...options.providerOptions?.vaani };
        const kept: JSONObject = { responseFormat: 'verbose_json' };
        for (const [key, value] of Object.entries(asked))
          if (TRANSCRIPTION_OPTIONS.has(key)) kept[key] = value;
          else warnings.push({ type: 'unsupported', feature: `providerOptions.${key}`, details: 'Vaani ignores it.' });
        const result = await model.doGenerate({ ...options, providerOptions: { openai: kept } });
        return { ...result, warnings: [...warnings, ...result.warnings] };
      },
    };
  };

  const speechModel = (modelId: string): SpeechModelV4 => {
    const model = openai.speech(modelId);
    return {
      specificationVersion: 'v4',
      provider: model.provider,
      modelId,
      async doGenerate({ instructions, providerOptions, ...options }) {
        const warnings: SharedV4Warning[] = [];
        const asked = { ...providerOptions?.openai, ...providerOptions?.vaani };
        if (instructions != null || asked.instructions != null)
          warnings.push({
            type: 'unsupported',
            feature: 'instructions',
            details: "Vaani's voices take no instructions.",
          });
        const { instructions: _dropped, ...kept } = asked;
        // WAV by default: the browser may have no MP3 encoder (OpenAI's default format).
        const result = await model.doGenerate({
          ...options,
          outputFormat: options.outputFormat ?? 'wav',
          providerOptions: { openai: kept },
        });
        return { ...result, warnings: [...warnings, ...result.warnings] };
      },
    };
  };

  const provider = ((modelId: string) => languageModel(modelId)) as VaaniProvider;
  return Object.assign(provider, {
    specificationVersion: 'v4' as const,
    languageModel,
    embeddingModel: (modelId: string) => compatible.embeddingModel(modelId),
    imageModel,
    transcriptionModel,
    speechModel,
  });
}
