import type { Services } from '../../../../http/dispatch';
import { runData } from '../../../../_data';

/** GET /vector_stores/{vector_store_id}/files/{file_id}/content: the file's chunks as text parts. */
export const GET = (
  ctx: Services,
  request: Request,
  path: string,
  { vector_store_id: storeId, file_id: fileId }: Record<string, string>,
) =>
  runData(ctx, request, path, new Uint8Array(), async (data) => ({
    object: 'vector_store.file_content.page',
    data: await data.entryContent(storeId!, fileId!),
    has_more: false,
    next_page: null,
  }));
