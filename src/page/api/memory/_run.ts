import type { EmbeddingPurpose, Embeddings } from '../../../protocol/embeddings';
import type { MemoryEngine } from '../../../protocol/memory';
import { dispatchTo, toResponse, type Services } from '../http/dispatch';
import { ApiError } from '../http/errors';
import { requireModel } from '../http/models-check';

/** Runs a memory request locally (memory engine + the model's embeddings engine) or where routing says. */
export async function runMemory(
  ctx: Services,
  request: Request,
  path: string,
  modelName: string,
  raw: Uint8Array<ArrayBuffer>,
  local: (
    memory: MemoryEngine,
    embed: (texts: string[], purpose: EmbeddingPurpose) => Promise<Embeddings>,
  ) => Promise<unknown>,
): Promise<Response> {
  const model = requireModel(modelName, 'memory');
  return dispatchTo(ctx, { request, path, raw }, { model: model.id, kind: 'memory' }, async (memory) => {
    const embed = (texts: string[], purpose: EmbeddingPurpose) => {
      const engine = ctx.registry.get('embeddings', model.id);
      if (!engine)
        throw new ApiError(503, `No local embedding engine answers '${model.id}'.`, 'model_unavailable', 'model');
      return engine.embed({ input: texts, purpose }, request.signal);
    };
    return toResponse(await local(memory, embed));
  });
}

export const usageOf = (tokens: number) => ({ prompt_tokens: tokens, total_tokens: tokens });
