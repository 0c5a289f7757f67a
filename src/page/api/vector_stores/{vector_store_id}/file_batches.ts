import { parse, readOptionalJson } from '../../http/body';
import type { Services } from '../../http/dispatch';
import { runData } from '../../_data';
import { addBatchSchema } from '../../_data-schema';
import { staticOf } from '../../vector_stores';

/** POST /vector_stores/{vector_store_id}/file_batches: many files at once (`file_ids`, or `files` with their own attributes). */
export async function POST(
  ctx: Services,
  request: Request,
  path: string,
  { vector_store_id: storeId }: Record<string, string>,
) {
  const { value, raw } = await readOptionalJson(request);
  const body = parse(addBatchSchema, value);
  const chunking = staticOf(body.chunking_strategy);
  const files =
    body.files?.map((file) => ({
      file_id: file.file_id,
      attributes: file.attributes ?? body.attributes ?? {},
      chunking: staticOf(file.chunking_strategy) ?? chunking,
    })) ?? body.file_ids!.map((file_id) => ({ file_id, attributes: body.attributes ?? {}, chunking }));
  return runData(ctx, request, path, raw, async (data) => (await data.addFiles(storeId!, files, true)).batch);
}
