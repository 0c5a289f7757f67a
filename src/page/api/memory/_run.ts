import type { MemoryEngine } from '../../../protocol/memory';
import { dispatchTo, toResponse, type Services } from '../http/dispatch';
import { requireModel } from '../http/models-check';

/** Runs a memory request on the local memory engine (which embeds the texts) or where routing says. */
export async function runMemory(
  ctx: Services,
  request: Request,
  path: string,
  modelName: string,
  raw: Uint8Array<ArrayBuffer>,
  local: (memory: MemoryEngine) => Promise<unknown>,
): Promise<Response> {
  const model = requireModel(modelName, 'memory');
  return dispatchTo(ctx, { request, path, raw }, { model: model.id, kind: 'memory' }, async (memory) =>
    toResponse(await local(memory)),
  );
}
