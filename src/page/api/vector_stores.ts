import type { StaticChunking } from '../../protocol/data';
import { parse, readOptionalJson } from './http/body';
import type { Services } from './http/dispatch';
import { listParams, runData } from './_data';
import { chunkingSchema, createStoreSchema } from './_data-schema';
import type * as v from 'valibot';
import { listOf } from './http/list';

/** The static strategy asked for; `auto` (or none) leaves it to the model's window. */
export const staticOf = (strategy: v.InferOutput<typeof chunkingSchema> | undefined): StaticChunking | undefined =>
  strategy?.type === 'static' ? strategy.static : undefined;

/** POST /vector_stores: a store, with `file_ids` added (and ingested in the background) at once. */
export async function POST(ctx: Services, request: Request, path: string): Promise<Response> {
  const { value, raw } = await readOptionalJson(request);
  const body = parse(createStoreSchema, value);
  return runData(ctx, request, path, raw, async (data) => {
    const store = await data.createStore({
      name: body.name,
      metadata: body.metadata,
      expires_after: body.expires_after,
    });
    if (!body.file_ids.length) return store;
    const chunking = staticOf(body.chunking_strategy);
    await data.addFiles(
      store.id,
      body.file_ids.map((file_id) => ({ file_id, attributes: {}, chunking })),
      false,
    );
    return data.getStore(store.id);
  });
}

/** GET /vector_stores */
export const GET = (ctx: Services, request: Request, path: string) => {
  const { filter: _filter, purpose: _purpose, ...params } = listParams(request);
  return runData(ctx, request, path, new Uint8Array(), async (data) => listOf(await data.listStores(params)));
};
