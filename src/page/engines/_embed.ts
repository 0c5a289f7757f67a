import type { EmbeddingPurpose, Embeddings } from '../../protocol/embeddings';
import { EngineError } from '../../protocol/errors';
import type { EngineRegistry } from './_registry';

/** Tokens an embedding model read for a request, as OpenAI's `usage` (0 when nothing was embedded). */
export const embeddingUsage = (tokens: number) => ({ prompt_tokens: tokens, total_tokens: tokens });

/**
 * The one place a collection (memory, data) calls an embedding model: the embeddings engine that
 * answers `model`, or a 503 `model_unavailable` naming the `model` field when none does.
 */
export function embedder(registry: EngineRegistry, model: string) {
  return async (texts: string[], purpose: EmbeddingPurpose, signal: AbortSignal): Promise<Embeddings> => {
    const engine = registry.get('embeddings', model);
    if (!engine)
      throw new EngineError(
        'unavailable',
        `No local embedding engine answers '${model}'.`,
        'model_unavailable',
        'model',
      );
    return engine.embed({ input: texts, purpose }, signal);
  };
}
