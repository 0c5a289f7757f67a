import { parse } from './http/body';
import type { Services } from './http/dispatch';
import { listOf } from './http/list';
import { runMemory } from './memory/_run';
import { listSchema, scopeSchema } from './memory/_schema';

const LIST_PARAMS = new Set(['limit', 'after', 'order', 'model']);

/** GET /memory?limit&after&order&<scope field>=…: a page of memories, newest first by default. */
export async function GET(ctx: Services, request: Request, path: string): Promise<Response> {
  const query = Object.fromEntries(new URL(request.url).searchParams);
  const params = parse(listSchema, Object.fromEntries(Object.entries(query).filter(([key]) => LIST_PARAMS.has(key))));
  const scope = parse(scopeSchema, Object.fromEntries(Object.entries(query).filter(([key]) => !LIST_PARAMS.has(key))));
  return runMemory(ctx, request, path, params.model, new Uint8Array(), async (memory) => {
    const page = await memory.list(
      { scope, limit: Number(params.limit), after: params.after, order: params.order },
      request.signal,
    );
    return listOf(page);
  });
}
