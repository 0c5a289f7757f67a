import { expect, test } from '@playwright/test';
import { malformedRequests, type FuzzRequest } from '../support/fuzz';
import { openHarness } from './support/page';

test('1,200 malformed requests across routes all get a 4xx in the error shape; the next valid one works', async ({
  page,
}) => {
  const pageErrors = await openHarness(page);
  const requests = malformedRequests(1200);
  const results = await page.evaluate(async (list: FuzzRequest[]) => {
    const ai = window.Vaani.createVaani();
    const out = [];
    for (const r of list) {
      let body: BodyInit | undefined = r.body;
      if (r.form) {
        const form = new FormData();
        for (const [k, v] of Object.entries(r.form))
          form.set(k, typeof v === 'string' ? v : new File([new Uint8Array(v.file)], v.name));
        body = form;
      }
      try {
        const res = await ai.fetch(ai.baseURL + r.path, { method: r.method, headers: r.headers, body });
        const json = await res.json().catch(() => null);
        const shaped =
          !!json?.error &&
          ['message', 'type', 'param', 'code'].every((k) => k in json.error) &&
          typeof json.error.message === 'string';
        out.push({ label: r.label, status: res.status, shaped });
      } catch (error) {
        out.push({ label: r.label, status: -1, shaped: false, thrown: String(error) });
      }
    }
    const valid = await ai.fetch(ai.baseURL + '/models', { headers: { authorization: 'Bearer k' } });
    return { out, valid: valid.status };
  }, requests);
  const bad = results.out.filter((r) => r.status < 400 || r.status >= 500 || !r.shaped);
  expect(bad, JSON.stringify(bad.slice(0, 10))).toEqual([]);
  expect(new Set(results.out.map((r) => r.status))).toEqual(new Set([400, 401, 404, 405, 415]));
  expect(results.valid).toBe(200);
  expect(pageErrors).toEqual([]);
});
