import type { Services } from '../http/dispatch';
import { runData } from '../_data';

type Params = Record<string, string>;

/** GET /files/{file_id} */
export const GET = (ctx: Services, request: Request, path: string, { file_id: id }: Params) =>
  runData(ctx, request, path, new Uint8Array(), (data) => data.getFile(id!));

/** DELETE /files/{file_id} */
export const DELETE = (ctx: Services, request: Request, path: string, { file_id: id }: Params) =>
  runData(ctx, request, path, new Uint8Array(), async (data) => {
    await data.deleteFile(id!);
    return { id, object: 'file', deleted: true };
  });
