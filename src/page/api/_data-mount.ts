import type { Hono } from 'hono';
import type { Services } from './http/dispatch';
import { createFile, fileContent, fileItem, listFiles, notAllowed } from './files';
import { searchStore } from './vector_stores/{vector_store_id}/search';
import {
  addBatch,
  addFile,
  batchItem,
  listStoreFiles,
  storeFile,
  storeFileContent,
} from './vector_stores/{vector_store_id}/files';
import { createStore, listStores, storeItem } from './vector_stores';

type Handler = (ctx: Services, request: Request, path: string) => Promise<Response>;
type Methods = Partial<Record<'GET' | 'POST' | 'DELETE', (params: Record<string, string>) => Handler>>;

/** The files and vector store routes (docs/api.md § Data), OpenAI's paths. */
const ROUTES: [string, Methods][] = [
  ['/files', { GET: () => listFiles, POST: () => createFile }],
  ['/files/:file', { GET: (p) => fileItem(p.file!), DELETE: (p) => fileItem(p.file!) }],
  ['/files/:file/content', { GET: (p) => fileContent(p.file!) }],
  ['/vector_stores', { GET: () => listStores, POST: () => createStore }],
  [
    '/vector_stores/:vs',
    { GET: (p) => storeItem(p.vs!), POST: (p) => storeItem(p.vs!), DELETE: (p) => storeItem(p.vs!) },
  ],
  ['/vector_stores/:vs/search', { POST: (p) => searchStore(p.vs!) }],
  ['/vector_stores/:vs/files', { GET: (p) => listStoreFiles(p.vs!), POST: (p) => addFile(p.vs!) }],
  [
    '/vector_stores/:vs/files/:file',
    {
      GET: (p) => storeFile(p.vs!, p.file!),
      POST: (p) => storeFile(p.vs!, p.file!),
      DELETE: (p) => storeFile(p.vs!, p.file!),
    },
  ],
  ['/vector_stores/:vs/files/:file/content', { GET: (p) => storeFileContent(p.vs!, p.file!) }],
  ['/vector_stores/:vs/file_batches', { POST: (p) => addBatch(p.vs!) }],
  ['/vector_stores/:vs/file_batches/:batch', { GET: (p) => batchItem(p.vs!, p.batch!, false) }],
  ['/vector_stores/:vs/file_batches/:batch/cancel', { POST: (p) => batchItem(p.vs!, p.batch!, true) }],
  ['/vector_stores/:vs/file_batches/:batch/files', { GET: (p) => listStoreFiles(p.vs!, p.batch!) }],
];

export function mountData(app: Hono, ctx: Services): void {
  for (const [path, methods] of ROUTES) {
    for (const [method, route] of Object.entries(methods)) {
      app.on(method, path, (c) => {
        const params = c.req.param() as Record<string, string>;
        return route(params)(
          ctx,
          c.req.raw,
          new URL(c.req.url).pathname.replace(/^.*?(?=\/files|\/vector_stores)/, ''),
        );
      });
    }
    app.all(path, notAllowed(Object.keys(methods).join(', ')));
  }
}
