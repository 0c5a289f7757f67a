import { ApiError } from '../api/errors';
import { loadEncoder, type LoadedEncoder } from '../models/encoder/load';
import type { EmbedParams } from '../protocol/embeddings';
import type { EmbeddingSettings } from '../types';
import { exposeEngine } from './expose';
import { modelSlot, type ErrorResult, type ModelJob } from './model-slot';

export interface EmbeddingsJob extends ModelJob {
  settings?: EmbeddingSettings;
  params: EmbedParams;
}

export interface EmbeddingsOutput {
  vectors: Float32Array[];
  tokens: number;
  paddedTokens: number;
  truncated: number[];
  dimensions: number;
  prefixes: { query: string; passage: string };
  backend: string;
}

export type EmbeddingsResult = EmbeddingsOutput | ErrorResult;

const load = modelSlot<LoadedEncoder, EmbeddingsJob>('embedding model', (loader, request) =>
  loadEncoder(loader, { ...request, override: request.settings }),
);
let cancel: AbortController | undefined;

function tokenize(model: LoadedEncoder, params: EmbedParams) {
  const vocab = model.tokenizer.vocabSize;
  return params.input.map((input, index) => {
    if (typeof input === 'string') {
      const prefix = params.purpose ? model.config.prefixes[params.purpose] : '';
      return model.tokenizer.encode(prefix + input);
    }
    const bad = input.find((id) => !Number.isInteger(id) || id < 0 || id >= vocab);
    if (bad !== undefined)
      throw new ApiError(
        400,
        `Token ${bad} is not in the model's vocabulary of ${vocab} tokens.`,
        'invalid_value',
        `input[${index}]`,
      );
    return model.tokenizer.wrap(input);
  });
}

const api = {
  async embed(job: EmbeddingsJob): Promise<EmbeddingsResult> {
    cancel = new AbortController();
    try {
      const model = await load(job);
      const tokenized = tokenize(model, job.params);
      const result = await model.encoder.embed(
        tokenized.map((input) => input.ids),
        cancel.signal,
      );
      return {
        vectors: result.vectors,
        tokens: result.tokens,
        paddedTokens: result.paddedTokens,
        truncated: tokenized.flatMap((input, index) => (input.truncated ? [index] : [])),
        dimensions: model.dimensions,
        prefixes: model.config.prefixes,
        backend: model.backend,
      };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return { error: { status: error.status, message: error.message, code: error.code, param: error.param } };
    }
  },
  /** Stops the running job before its next batch. */
  cancel(): void {
    cancel?.abort();
  },
};

export type EmbeddingsWorkerApi = typeof api;
exposeEngine(api);
