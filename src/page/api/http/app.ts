import { Hono } from 'hono';
import type { RouteModule, Services } from './dispatch';
import { ApiError, toApiError } from './errors';
import { ROUTES } from '../routes';
import { randomId } from '../../../common/ids';

/** The methods a route may have, in the order its 405's `Allow` names them. */
const METHODS = ['GET', 'POST', 'DELETE'] as const;

const BEARER = /^Bearer [^\s]+$/;

/** The /v1 router: `Request → Response` for every route of the service, mounted at `basePath`. */
export function createApp(ctx: Services, basePath: string, auth: 'required' | 'optional'): Hono {
  const base = basePath.replace(/\/+$/, '');
  const app = new Hono().basePath(base);

  app.onError((error) => toApiError(error).toResponse());
  app.notFound((c) =>
    new ApiError(404, `Unknown route: ${c.req.method} ${new URL(c.req.url).pathname}.`, 'unknown_route').toResponse(),
  );

  app.use('*', async (c, next) => {
    await next();
    const response = withRequestId(c.res);
    if (response === c.res) return;
    // Hono's setter wraps an assigned response in one more copy unless none is set.
    c.res = undefined;
    c.res = response;
  });

  app.use('*', async (c, next) => {
    if (auth === 'required' && !BEARER.test(c.req.header('authorization') ?? '')) {
      throw new ApiError(
        401,
        'Missing or malformed Authorization header: send "Authorization: Bearer <API_KEY>".',
        'invalid_api_key',
      );
    }
    await next();
  });

  for (const [path, route] of Object.entries(ROUTES) as [string, RouteModule][]) {
    const methods = METHODS.filter((method) => route[method]);
    const at = path.replace(/\{(\w+)\}/g, ':$1');
    for (const method of methods)
      app.on(method, at, (c) =>
        route[method]!(ctx, c.req.raw, new URL(c.req.url).pathname.slice(base.length), c.req.param()),
      );
    app.all(at, () => methodNotAllowed(methods.join(', ')));
  }
  return app;
}

/**
 * Every answer carries `x-request-id`: a forwarded one keeps the remote's, others get a fresh one,
 * set in place where the headers may change (the route's own responses). A copy, only for a
 * fetched response's immutable headers, wraps the body in one more stream that the reader pays
 * for (≈ 1.5 ms per copy for a 0.7 MB body here).
 */
function withRequestId(response: Response): Response {
  if (response.headers.has('x-request-id')) return response;
  try {
    response.headers.set('x-request-id', randomId('req_'));
    return response;
  } catch {
    const copy = new Response(response.body, response);
    copy.headers.set('x-request-id', randomId('req_'));
    return copy;
  }
}

const methodNotAllowed = (allow: string) =>
  new ApiError(405, `Method not allowed: this route accepts ${allow}.`, 'method_not_allowed', null, {
    allow,
  }).toResponse();
