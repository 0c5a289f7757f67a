import { parse, readJson } from '../http/body';
import type { Services } from '../http/dispatch';
import { runMemory } from './_run';
import { deleteSchema } from './_schema';

/** POST /memory/delete: every memory in a scope (at least one field), optionally narrowed by filters. */
export async function POST(ctx: Services, request: Request, path: string): Promise<Response> {
  const { value, raw } = await readJson(request);
  const body = parse(deleteSchema, value);
  return runMemory(ctx, request, path, body.model, raw, async (memory) => ({
    object: 'memory.deleted',
    deleted: await memory.removeWhere(body.scope, body.filters, request.signal),
  }));
}
