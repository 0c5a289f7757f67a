import type { Services } from '../../../../http/dispatch';
import { runData } from '../../../../_data';

/** POST /vector_stores/{vector_store_id}/file_batches/{batch_id}/cancel */
export const POST = (
  ctx: Services,
  request: Request,
  path: string,
  { vector_store_id: storeId, batch_id: batchId }: Record<string, string>,
) => runData(ctx, request, path, new Uint8Array(), (data) => data.cancelBatch(storeId!, batchId!));
