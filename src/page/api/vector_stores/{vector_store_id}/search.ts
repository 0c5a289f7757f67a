import { parse, readOptionalJson } from '../../http/body';
import type { Services } from '../../http/dispatch';
import { runData } from '../../_data';
import { searchSchema } from '../../_data-schema';

/**
 * POST /vector_stores/{id}/search: hybrid (meaning + BM25, rank-fused) search over the store's
 * chunks in OpenAI's result page; `ranking_options.ranker: 'none'` ranks by meaning alone (cosine).
 */
export async function POST(
  ctx: Services,
  request: Request,
  path: string,
  { vector_store_id: storeId }: Record<string, string>,
) {
  const { value, raw } = await readOptionalJson(request);
  const body = parse(searchSchema, value);
  const text = [body.query].flat().join(' ');
  return runData(ctx, request, path, raw, async (data) => {
    const results = await data.search([storeId!], {
      text,
      mode: body.ranking_options?.ranker === 'none' ? 'semantic' : 'hybrid',
      filters: body.filters ?? undefined,
      limit: body.max_num_results,
      minScore: body.ranking_options?.score_threshold,
    });
    return {
      object: 'vector_store.search_results.page',
      search_query: body.query,
      data: results.map(({ chunk: _chunk, ...result }) => result),
      has_more: false,
      next_page: null,
    };
  });
}
