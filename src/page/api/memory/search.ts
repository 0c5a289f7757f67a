import { parse, readJson } from '../http/body';
import type { Services } from '../http/dispatch';
import { runMemory, usageOf } from './_run';
import { searchSchema } from './_schema';

/** POST /memory/search (and /memory/recall): hybrid, semantic or keyword, within a scope and metadata filters. */
export async function POST(ctx: Services, request: Request, path: string): Promise<Response> {
  const { value, raw } = await readJson(request);
  const body = parse(searchSchema, value);
  return runMemory(ctx, request, path, body.model, raw, async (memory, embed) => {
    // Keyword search needs no model: it works before the embedding model has ever been downloaded.
    const embedded = body.mode === 'keyword' ? undefined : await embed([body.query], 'query');
    const hits = await memory.search(
      {
        text: body.query,
        vector: embedded?.vectors[0],
        mode: body.mode,
        scope: body.scope,
        filters: body.filters,
        limit: body.limit,
        minScore: body.min_score,
      },
      embedded?.model,
      request.signal,
    );
    return { object: 'list', data: hits, model: body.model, usage: usageOf(embedded?.tokens ?? 0) };
  });
}
