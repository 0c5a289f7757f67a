import { parse, readJson } from '../http/body';
import type { Services } from '../http/dispatch';
import { defaultModel } from '../../../catalogue/families';
import { runMemory } from './_run';
import { updateSchema } from './_schema';

type Params = Record<string, string>;

/** GET /memory/{memory_id} */
export const GET = (ctx: Services, request: Request, path: string, { memory_id: id }: Params) =>
  runMemory(ctx, request, path, defaultModel('/memory'), new Uint8Array(), (memory) => memory.get(id!, request.signal));

/** DELETE /memory/{memory_id} */
export const DELETE = (ctx: Services, request: Request, path: string, { memory_id: id }: Params) =>
  runMemory(ctx, request, path, defaultModel('/memory'), new Uint8Array(), async (memory) => {
    await memory.remove(id!, request.signal);
    return { id, object: 'memory.deleted', deleted: true };
  });

/** POST /memory/{memory_id}: an update; new text is embedded again. */
export async function POST(ctx: Services, request: Request, path: string, { memory_id: id }: Params) {
  const { value, raw } = await readJson(request);
  const body = parse(updateSchema, value);
  return runMemory(ctx, request, path, body.model, raw, async (memory) => {
    const change = { text: body.text, metadata: body.metadata, scope: body.scope };
    const { result, usage } = await memory.update(id!, change, request.signal);
    return { ...result, usage };
  });
}
