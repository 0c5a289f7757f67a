import type { ProductEntry } from '../catalogue/models';
import type { Context } from './context';
import { ApiError } from './errors';

/**
 * POST /memory/store and /data/query: their products have no models yet. A configured remote
 * answers them; otherwise a 501 says so.
 */
export const comingSoon =
  (product: ProductEntry) =>
  async (ctx: Context, request: Request, path: string): Promise<Response> => {
    if (ctx.remote) return ctx.remote.forward(path, request, new Uint8Array(await request.arrayBuffer()), false);
    throw new ApiError(
      501,
      `The ${product.product} product has no models yet (status: coming soon). Configure a remote to forward ${path} to it.`,
      'coming_soon',
    );
  };
