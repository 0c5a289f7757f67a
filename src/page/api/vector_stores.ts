import type { StaticChunking } from '../../protocol/data';
import { parse } from './http/body';
import type { Services } from './http/dispatch';
import { jsonOf, listOf, listParams, runData } from './_data';
import { chunkingSchema, createStoreSchema, updateStoreSchema } from './_data-schema';
import type * as v from 'valibot';

/** The static strategy asked for; `auto` (or none) leaves it to the model's window. */
export const staticOf = (strategy: v.InferOutput<typeof chunkingSchema> | undefined): StaticChunking | undefined =>
  strategy?.type === 'static' ? strategy.static : undefined;

/** POST /vector_stores: a store, with `file_ids` added (and ingested in the background) at once. */
export async function createStore(ctx: Services, request: Request, path: string): Promise<Response> {
  const { value, raw } = await jsonOf(request);
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

export const listStores = (ctx: Services, request: Request, path: string) =>
  runData(ctx, request, path, new Uint8Array(), async (data) => {
    const { filter: _filter, purpose: _purpose, ...params } = listParams(request);
    return listOf(await data.listStores(params));
  });

/** GET, POST (update) and DELETE /vector_stores/{id}. */
export const storeItem = (id: string) => async (ctx: Services, request: Request, path: string) => {
  const { value, raw } = await jsonOf(request);
  return runData(ctx, request, path, raw, async (data) => {
    if (request.method === 'GET') return data.getStore(id);
    if (request.method === 'DELETE') {
      await data.deleteStore(id);
      return { id, object: 'vector_store.deleted', deleted: true };
    }
    const body = parse(updateStoreSchema, value);
    return data.updateStore(id, {
      ...(body.name != null ? { name: body.name } : {}),
      ...(body.metadata != null ? { metadata: body.metadata } : {}),
      ...(body.expires_after !== undefined ? { expires_after: body.expires_after } : {}),
    });
  });
};
