import type { Services } from '../http/dispatch';
import { ApiError } from '../http/errors';

/** GET /responses/{id}: a response this page still keeps. */
export async function GET(
  ctx: Services,
  _request: Request,
  _path: string,
  { response_id: id }: Record<string, string>,
) {
  const stored = ctx.responses.get(id!);
  if (!stored) throw new ApiError(404, `No response with id '${id}' is kept in this page.`, 'response_not_found', 'id');
  return Response.json(stored.response);
}

/** DELETE /responses/{id}. */
export async function DELETE(
  ctx: Services,
  _request: Request,
  _path: string,
  { response_id: id }: Record<string, string>,
) {
  if (!ctx.responses.delete(id!))
    throw new ApiError(404, `No response with id '${id}' is kept in this page.`, 'response_not_found', 'id');
  return Response.json({ id, object: 'response.deleted', deleted: true });
}
