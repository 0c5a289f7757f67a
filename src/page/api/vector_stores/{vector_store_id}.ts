import { parse, readOptionalJson } from '../http/body';
import type { Services } from '../http/dispatch';
import { runData } from '../_data';
import { updateStoreSchema } from '../_data-schema';

type Params = Record<string, string>;

/** GET /vector_stores/{vector_store_id} */
export const GET = (ctx: Services, request: Request, path: string, { vector_store_id: id }: Params) =>
  runData(ctx, request, path, new Uint8Array(), (data) => data.getStore(id!));

/** DELETE /vector_stores/{vector_store_id} */
export const DELETE = (ctx: Services, request: Request, path: string, { vector_store_id: id }: Params) =>
  runData(ctx, request, path, new Uint8Array(), async (data) => {
    await data.deleteStore(id!);
    return { id, object: 'vector_store.deleted', deleted: true };
  });

/** POST /vector_stores/{vector_store_id}: an update. */
export async function POST(ctx: Services, request: Request, path: string, { vector_store_id: id }: Params) {
  const { value, raw } = await readOptionalJson(request);
  const body = parse(updateStoreSchema, value);
  return runData(ctx, request, path, raw, async (data) => {
    return data.updateStore(id!, {
      ...(body.name != null ? { name: body.name } : {}),
      ...(body.metadata != null ? { metadata: body.metadata } : {}),
      ...(body.expires_after !== undefined ? { expires_after: body.expires_after } : {}),
    });
  });
}
