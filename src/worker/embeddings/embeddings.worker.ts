import { loadEncoder, type LoadedEncoder } from './load';
import type { EmbeddingsJob, EmbeddingsOutput, EmbeddingsWorker, EmbedParams } from '../../protocol/embeddings';
import { invalidInput } from '../../protocol/errors';
import type { Served } from '../../protocol/worker';
import { exposeEngine, reportProgress } from '../host/expose';
import { modelSlot } from '../host/model-slot';

const load = modelSlot<LoadedEncoder, EmbeddingsJob>('embedding model', (loader, request) =>
  loadEncoder(loader, { ...request, override: request.settings }),
);

function tokenize(model: LoadedEncoder, params: EmbedParams) {
  const vocab = model.tokenizer.vocabSize;
  return params.input.map((input, index) => {
    if (typeof input === 'string') {
      const prefix = params.purpose ? model.config.prefixes[params.purpose] : '';
      return model.tokenizer.encode(prefix + input);
    }
    const bad = input.find((id) => !Number.isInteger(id) || id < 0 || id >= vocab);
    if (bad !== undefined)
      throw invalidInput(`Token ${bad} is not in the model's vocabulary of ${vocab} tokens.`, `input[${index}]`);
    return model.tokenizer.wrap(input);
  });
}

const api = {
  async embed(signal: AbortSignal, job: EmbeddingsJob): Promise<EmbeddingsOutput> {
    const model = await load(job);
    const tokenized = tokenize(model, job.params);
    const result = await model.encoder.embed(
      tokenized.map((input) => input.ids),
      signal,
      reportProgress,
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
  },
} satisfies Served<EmbeddingsWorker>;

exposeEngine(api);
