import { parse, readJson } from '../http/body';
import type { Services } from '../http/dispatch';
import { runMemory } from './_run';
import { storeSchema } from './_schema';

/** POST /memory/store: one memory (`text`) or many (`items`); the top-level scope and metadata apply to every item. */
export async function POST(ctx: Services, request: Request, path: string): Promise<Response> {
  const { value, raw } = await readJson(request);
  const body = parse(storeSchema, value);
  const items = (body.items ?? [{ text: body.text!, metadata: {}, scope: {} }]).map((item) => ({
    text: item.text,
    metadata: { ...body.metadata, ...item.metadata },
    scope: { ...body.scope, ...item.scope },
  }));
  return runMemory(ctx, request, path, body.model, raw, async (memory) => {
    const { result, usage } = await memory.store(items, request.signal);
    return { object: 'list', data: result, model: body.model, usage };
  });
}
