import type * as v from 'valibot';
import { defaultModel } from '../../catalogue/families';
import type { DataEngine } from '../../protocol/data';
import type { ListParams } from '../../protocol/collections';
import { parse } from './http/body';
import { dispatchTo, toResponse, type Services } from './http/dispatch';
import { listSchema } from './_data-schema';

/** The model whose data engine answers (the store's vectors come from it). */
export const DATA_MODEL = defaultModel('/vector_stores');

/** Runs a data request on the local data engine, or where routing says (a remote's /v1/files…). */
export async function runData(
  ctx: Services,
  request: Request,
  path: string,
  raw: Uint8Array<ArrayBuffer>,
  local: (data: DataEngine) => Promise<unknown>,
): Promise<Response> {
  return dispatchTo(ctx, { request, path, raw }, { model: DATA_MODEL, kind: 'data' }, async (data) => {
    return toResponse(await local(data));
  });
}

/** OpenAI's list query (`limit`, `order`, `after`, `before` and the route's own filter). */
export function listParams(request: Request): ListParams & Omit<v.InferOutput<typeof listSchema>, 'limit'> {
  const query = Object.fromEntries(new URL(request.url).searchParams);
  const params = parse(listSchema, query);
  return { ...params, limit: Number(params.limit) };
}
