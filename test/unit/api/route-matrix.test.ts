/**
 * Golden test of the /v1 HTTP surface, so that moving or rewriting the routes cannot change it unseen:
 * - route-matrix.json: every path the router registers (its `{param}`s filled with `x`) × GET, POST,
 *   PUT, DELETE, PATCH on an instance with no engines and no remote: the status, the `Allow` header
 *   and the error (type, code, param, message). POST, PUT and PATCH send `{}` as JSON.
 * - catalogue.json: the bodies of GET /models, GET /models/{each id and alias} and GET /voices, with no
 *   engines and with the built-in engines registered (none started; `backend: 'wasm'` so that the
 *   answer does not depend on WebGPU being there).
 * Nothing in these answers varies between runs (no ids, no clock). After a deliberate change, rewrite
 * the files with `UPDATE_GOLDEN=1 npx vitest run test/unit/api/route-matrix.test.ts` and review the diff.
 */
import { isDeepStrictEqual } from 'node:util';
import { afterAll, describe, it } from 'vitest';
import { createVaani } from '../../../src/index';
import { expectGolden } from '../golden';
import { AUTH, BASE, service } from './helpers';

const PATHS = [
  '/chat/completions',
  '/completions',
  '/audio/speech',
  '/audio/transcriptions',
  '/audio/translations',
  '/audio/speech-to-speech',
  '/audio/voice-changer',
  '/audio/isolate',
  '/images/generations',
  '/images/edits',
  '/code/completions',
  '/responses',
  '/responses/{response_id}',
  '/responses/{response_id}/input_items',
  '/agents/run',
  '/embeddings',
  '/data/query',
  '/models',
  '/models/{model}',
  '/voices',
  '/memory',
  '/memory/store',
  '/memory/search',
  '/memory/recall',
  '/memory/delete',
  '/memory/{memory_id}',
  '/files',
  '/files/{file_id}',
  '/files/{file_id}/content',
  '/vector_stores',
  '/vector_stores/{vector_store_id}',
  '/vector_stores/{vector_store_id}/search',
  '/vector_stores/{vector_store_id}/files',
  '/vector_stores/{vector_store_id}/files/{file_id}',
  '/vector_stores/{vector_store_id}/files/{file_id}/content',
  '/vector_stores/{vector_store_id}/file_batches',
  '/vector_stores/{vector_store_id}/file_batches/{batch_id}',
  '/vector_stores/{vector_store_id}/file_batches/{batch_id}/cancel',
  '/vector_stores/{vector_store_id}/file_batches/{batch_id}/files',
  '/not-a-route',
];
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];

const golden = (name: string) => new URL(`__golden__/${name}`, import.meta.url);

interface ApiErrorBody {
  type: string;
  code: string | null;
  param: string | null;
  message: string;
}

/** An answer as one line: status, `Allow`, and the error's type, code, param and message. */
async function line(response: Response): Promise<string> {
  const allow = response.headers.get('allow');
  const text = await response.text();
  if (response.status >= 400 && !text.startsWith('{')) return `${response.status} ${text}`;
  const error = response.status >= 400 ? (JSON.parse(text) as { error: ApiErrorBody }).error : undefined;
  const param = error?.param ? ` param=${error.param}` : '';
  const about = error ? ` ${error.type} ${error.code}${param}: ${error.message}` : '';
  return `${response.status}${allow ? ` (Allow: ${allow})` : ''}${about}`;
}

/** A successful JSON answer's body. */
async function body(response: Response): Promise<unknown> {
  if (response.status !== 200) throw new Error(`${response.url}: ${response.status} ${await response.text()}`);
  return response.json();
}

const bare = service();
const builtIn = createVaani({ baseURL: BASE, backend: 'wasm' });
afterAll(() => {
  bare.dispose();
  builtIn.dispose();
});

describe('the /v1 surface', () => {
  it('answers every path × method as recorded in __golden__/route-matrix.json', async () => {
    const matrix: Record<string, Record<string, string>> = {};
    for (const path of PATHS) {
      matrix[path] = {};
      for (const method of METHODS) {
        const sent = method === 'GET' || method === 'DELETE' ? undefined : '{}';
        const headers = { ...AUTH, ...(sent ? { 'content-type': 'application/json' } : {}) };
        const url = `${BASE}${path.replace(/\{\w+\}/g, 'x')}`;
        matrix[path][method] = await line(await bare.fetch(url, { method, headers, body: sent }));
      }
    }
    matrix['/models without Authorization'] = { GET: await line(await bare.fetch(`${BASE}/models`)) };
    await expectGolden(golden('route-matrix.json'), matrix);
  });

  it('lists the models and voices recorded in __golden__/catalogue.json', async () => {
    const catalogue: Record<string, Record<string, unknown>> = {};
    for (const [name, ai] of [
      ['no engines', bare],
      ['built-in engines, none started', builtIn],
    ] as const) {
      const get = async (path: string) => body(await ai.fetch(`${BASE}${path}`, { headers: AUTH }));
      const models = (await get('/models')) as { data: { id: string; aliases: string[] }[] };
      // GET /models/{id or alias}: the model's entry in the list, named rather than repeated.
      const one: Record<string, unknown> = {};
      for (const id of models.data.flatMap((model) => [model.id, ...model.aliases])) {
        // Its plan (x_vaani) depends on what this runtime reports: the plan specs check it; here, that it is the model's.
        const { x_vaani: plan, ...model } = (await get(`/models/${encodeURIComponent(id)}`)) as {
          x_vaani?: { model: string };
        };
        const same = models.data.find((listed) => isDeepStrictEqual(listed, model));
        one[id] = same && plan?.model === same.id ? `the entry of ${same.id} in GET /models, with its x_vaani` : model;
      }
      catalogue[name] = { 'GET /models': models, 'GET /models/{model}': one, 'GET /voices': await get('/voices') };
    }
    await expectGolden(golden('catalogue.json'), catalogue);
  });
});
