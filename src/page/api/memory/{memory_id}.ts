import { parse, readJson } from '../http/body';
import type { Services } from '../http/dispatch';
import { runMemory, usageOf } from './_run';
import { updateSchema } from './_schema';

type Params = Record<string, string>;

/** GET /memory/{memory_id} */
export const GET = (ctx: Services, request: Request, path: string, { memory_id: id }: Params) =>
  runMemory(ctx, request, path, 'embed-v1', new Uint8Array(), (memory) => memory.get(id!, request.signal));

/** DELETE /memory/{memory_id} */
export const DELETE = (ctx: Services, request: Request, path: string, { memory_id: id }: Params) =>
  runMemory(ctx, request, path, 'embed-v1', new Uint8Array(), async (memory) => {
    await memory.remove(id!, request.signal);
    return { id, object: 'memory.deleted', deleted: true };
  });

/** POST /memory/{memory_id}: an update; new text is embedded again. */
export async function POST(ctx: Services, request: Request, path: string, { memory_id: id }: Params) {
  const { value, raw } = await readJson(request);
  const body = parse(updateSchema, value);
  return runMemory(ctx, request, path, body.model, raw, async (memory, embed) => {
    const embedded = body.text === undefined ? undefined : await embed([body.text], 'passage');
    const updated = await memory.update(
      id!,
      { text: body.text, metadata: body.metadata, scope: body.scope, vector: embedded?.vectors[0] },
      embedded?.model,
      request.signal,
    );
    return { ...updated, usage: usageOf(embedded?.tokens ?? 0) };
  });
}
