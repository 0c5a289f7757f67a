import { Hono } from 'hono';
import { label, type RouteModule, type Services } from './dispatch';
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
    const response = labelled(c.res);
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
 * Every answer carries `x-request-id` (a forwarded one keeps the remote's) and `x-vaani-engine`
 * (an answer no engine gave, such as a 400 before dispatch, is the page's own: 'local').
 */
const labelled = (response: Response) =>
  label(response, { 'x-request-id': randomId('req_'), 'x-vaani-engine': 'local' });

const methodNotAllowed = (allow: string) =>
  new ApiError(405, `Method not allowed: this route accepts ${allow}.`, 'method_not_allowed', null, {
    allow,
  }).toResponse();
