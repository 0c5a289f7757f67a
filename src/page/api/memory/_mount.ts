import type { Hono } from 'hono';
import type { Services } from '../http/dispatch';
import { ApiError } from '../http/errors';
import { memoryDelete, memoryItem, memoryList } from './{memory_id}';
import { memorySearch } from './search';
import { memoryStore } from './store';

const notAllowed = (allow: string) => () =>
  new ApiError(405, `Method not allowed: this route accepts ${allow}.`, 'method_not_allowed', null, {
    allow,
  }).toResponse();

/** The memory routes (docs/api.md § Memory). */
export function mountMemory(app: Hono, ctx: Services): void {
  for (const [path, route] of [
    ['/memory/store', memoryStore],
    ['/memory/search', memorySearch],
    ['/memory/recall', memorySearch],
    ['/memory/delete', memoryDelete],
  ] as const) {
    app.post(path, (c) => route(ctx, c.req.raw, path));
    app.all(path, notAllowed('POST'));
  }
  app.get('/memory', (c) => memoryList(ctx, c.req.raw, '/memory'));
  app.all('/memory', notAllowed('GET'));
  for (const method of ['get', 'post', 'delete'] as const)
    app[method]('/memory/:id', (c) => memoryItem(c.req.param('id'))(ctx, c.req.raw, `/memory/${c.req.param('id')}`));
  app.all('/memory/:id', notAllowed('GET, POST, DELETE'));
}
