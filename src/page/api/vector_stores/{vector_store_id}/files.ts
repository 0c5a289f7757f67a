import { parse } from '../../http/body';
import type { Services } from '../../http/dispatch';
import { jsonOf, listOf, listParams, runData } from '../../_data';
import { addBatchSchema, addFileSchema, updateFileSchema } from '../../_data-schema';
import { staticOf } from '../../vector_stores';

/** POST /vector_stores/{id}/files: the file is added `in_progress` and ingested in the background. */
export const addFile = (storeId: string) => async (ctx: Services, request: Request, path: string) => {
  const { value, raw } = await jsonOf(request);
  const body = parse(addFileSchema, value);
  return runData(ctx, request, path, raw, async (data) => {
    const { entries } = await data.addFiles(
      storeId,
      [{ file_id: body.file_id, attributes: body.attributes ?? {}, chunking: staticOf(body.chunking_strategy) }],
      false,
    );
    return entries[0];
  });
};

/** GET /vector_stores/{id}/files (`filter` by status) and /file_batches/{batch}/files. */
export const listStoreFiles = (storeId: string, batchId?: string) => (ctx: Services, request: Request, path: string) =>
  runData(ctx, request, path, new Uint8Array(), async (data) => {
    const { purpose: _purpose, ...params } = listParams(request);
    if (batchId) await data.getBatch(storeId, batchId);
    return listOf(await data.listEntries(storeId, { ...params, ...(batchId ? { batch_id: batchId } : {}) }));
  });

/** GET, POST (new attributes) and DELETE /vector_stores/{id}/files/{file_id}. */
export const storeFile = (storeId: string, fileId: string) => async (ctx: Services, request: Request, path: string) => {
  const { value, raw } = await jsonOf(request);
  return runData(ctx, request, path, raw, async (data) => {
    if (request.method === 'GET') return data.getEntry(storeId, fileId);
    if (request.method === 'DELETE') {
      await data.deleteEntry(storeId, fileId);
      return { id: fileId, object: 'vector_store.file.deleted', deleted: true };
    }
    return data.updateEntry(storeId, fileId, parse(updateFileSchema, value).attributes ?? {});
  });
};

/** GET /vector_stores/{id}/files/{file_id}/content: the file's chunks as text parts. */
export const storeFileContent = (storeId: string, fileId: string) => (ctx: Services, request: Request, path: string) =>
  runData(ctx, request, path, new Uint8Array(), async (data) => ({
    object: 'vector_store.file_content.page',
    data: await data.entryContent(storeId, fileId),
    has_more: false,
    next_page: null,
  }));

/** POST /vector_stores/{id}/file_batches: many files at once (`file_ids`, or `files` with their own attributes). */
export const addBatch = (storeId: string) => async (ctx: Services, request: Request, path: string) => {
  const { value, raw } = await jsonOf(request);
  const body = parse(addBatchSchema, value);
  const chunking = staticOf(body.chunking_strategy);
  const files =
    body.files?.map((file) => ({
      file_id: file.file_id,
      attributes: file.attributes ?? body.attributes ?? {},
      chunking: staticOf(file.chunking_strategy) ?? chunking,
    })) ?? body.file_ids!.map((file_id) => ({ file_id, attributes: body.attributes ?? {}, chunking }));
  return runData(ctx, request, path, raw, async (data) => (await data.addFiles(storeId, files, true)).batch);
};

/** GET /vector_stores/{id}/file_batches/{batch} and POST …/cancel. */
export const batchItem =
  (storeId: string, batchId: string, cancel: boolean) => (ctx: Services, request: Request, path: string) =>
    runData(ctx, request, path, new Uint8Array(), (data) =>
      cancel ? data.cancelBatch(storeId, batchId) : data.getBatch(storeId, batchId),
    );
