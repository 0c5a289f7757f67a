import { parse, readOptionalJson } from '../../../http/body';
import type { Services } from '../../../http/dispatch';
import { runData } from '../../../_data';
import { updateFileSchema } from '../../../_data-schema';

type Params = Record<string, string>;

/** GET /vector_stores/{vector_store_id}/files/{file_id} */
export const GET = (
  ctx: Services,
  request: Request,
  path: string,
  { vector_store_id: storeId, file_id: fileId }: Params,
) => runData(ctx, request, path, new Uint8Array(), (data) => data.getEntry(storeId!, fileId!));

/** DELETE /vector_stores/{vector_store_id}/files/{file_id} */
export const DELETE = (
  ctx: Services,
  request: Request,
  path: string,
  { vector_store_id: storeId, file_id: fileId }: Params,
) =>
  runData(ctx, request, path, new Uint8Array(), async (data) => {
    await data.deleteEntry(storeId!, fileId!);
    return { id: fileId, object: 'vector_store.file.deleted', deleted: true };
  });

/** POST /vector_stores/{vector_store_id}/files/{file_id}: new attributes. */
export async function POST(
  ctx: Services,
  request: Request,
  path: string,
  { vector_store_id: storeId, file_id: fileId }: Params,
) {
  const { value, raw } = await readOptionalJson(request);
  const { attributes } = parse(updateFileSchema, value);
  return runData(ctx, request, path, raw, (data) => data.updateEntry(storeId!, fileId!, attributes ?? {}));
}
