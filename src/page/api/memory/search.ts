import { parse, readJson } from '../http/body';
import type { Services } from '../http/dispatch';
import { runMemory } from './_run';
import { searchSchema } from './_schema';

/** POST /memory/search (and /memory/recall): hybrid, semantic or keyword, within a scope and metadata filters. */
export async function POST(ctx: Services, request: Request, path: string): Promise<Response> {
  const { value, raw } = await readJson(request);
  const body = parse(searchSchema, value);
  return runMemory(ctx, request, path, body.model, raw, async (memory) => {
    const { result, usage } = await memory.search(
      {
        text: body.query,
        mode: body.mode,
        scope: body.scope,
        filters: body.filters,
        limit: body.limit,
        minScore: body.min_score,
      },
      request.signal,
    );
    return { object: 'list', data: result, model: body.model, usage };
  });
}
