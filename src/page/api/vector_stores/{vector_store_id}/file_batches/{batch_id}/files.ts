// GET /vector_stores/{vector_store_id}/file_batches/{batch_id}/files: the store's file list, narrowed to the batch.
export { GET } from '../../files';
