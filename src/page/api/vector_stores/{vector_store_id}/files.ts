import { parse, readOptionalJson } from '../../http/body';
import type { Services } from '../../http/dispatch';
import { listParams, runData } from '../../_data';
import { addFileSchema } from '../../_data-schema';
import { staticOf } from '../../vector_stores';
import { listOf } from '../../http/list';

type Params = Record<string, string>;

/** POST /vector_stores/{vector_store_id}/files: the file is added `in_progress` and ingested in the background. */
export async function POST(ctx: Services, request: Request, path: string, { vector_store_id: storeId }: Params) {
  const { value, raw } = await readOptionalJson(request);
  const body = parse(addFileSchema, value);
  return runData(ctx, request, path, raw, async (data) => {
    const { entries } = await data.addFiles(
      storeId!,
      [{ file_id: body.file_id, attributes: body.attributes ?? {}, chunking: staticOf(body.chunking_strategy) }],
      false,
    );
    return entries[0];
  });
}

/** GET /vector_stores/{vector_store_id}/files (`filter` by status) and …/file_batches/{batch_id}/files. */
export const GET = (
  ctx: Services,
  request: Request,
  path: string,
  { vector_store_id: storeId, batch_id: batchId }: Params,
) => {
  const { purpose: _purpose, ...params } = listParams(request);
  return runData(ctx, request, path, new Uint8Array(), async (data) => {
    if (batchId) await data.getBatch(storeId!, batchId);
    return listOf(await data.listEntries(storeId!, { ...params, ...(batchId ? { batch_id: batchId } : {}) }));
  });
};
