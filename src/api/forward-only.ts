import type * as v from 'valibot';
import type { Product } from '../catalogue/models';
import { readJson, parse } from './body';
import { dispatch, type Services } from './services';
import { requireModel, requireWithinContext } from './models-check';

/**
 * A route with a validated JSON body whose models have no in-browser engine: it is answered by
 * the remote, or with a 503 that says how to configure one.
 */
export const forwardOnly =
  <S extends v.GenericSchema<unknown, { model: string; stream?: boolean; max_tokens?: number }>>(
    product: Product,
    schema: S,
  ) =>
  async (ctx: Services, request: Request, path: string): Promise<Response> => {
    const { value, raw } = await readJson(request);
    const body = parse(schema, value);
    requireWithinContext(requireModel(body.model, product), body.max_tokens);
    return dispatch(ctx, { request, path, raw, streaming: body.stream === true, model: body.model });
  };
