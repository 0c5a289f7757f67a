import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { documentedErrors, fuzzRoute, ROUTE_SPECS, type FuzzRequest } from '../../support/fuzz';
import { AUTH, postJson, service } from './helpers';

/** The page's ids where a path or body names one (none exists: a service without engines or store). */
const fill = (text: string) => text.replace(/\{(\w+)\}/g, (_, name: string) => `${name}_fuzz`);

function init(r: FuzzRequest): RequestInit {
  const body = r.body;
  if (!body) return { method: r.method, headers: r.headers };
  if ('bytes' in body) return { method: r.method, headers: r.headers, body: new Uint8Array(body.bytes) };
  if ('text' in body) {
    const text = (body.expand ?? []).reduce(
      (t, [mark, unit, n]) => t.split(mark).join(unit.repeat(n)),
      fill(body.text),
    );
    return { method: r.method, headers: r.headers, body: text };
  }
  const form = new FormData();
  for (const part of body.form) {
    if ('value' in part) form.append(part.name, part.value);
    else {
      const bytes = new Uint8Array(part.file.zeros ?? part.file.bytes?.length ?? 64);
      form.append(part.name, new File([bytes], part.file.filename, { type: part.file.type }));
    }
  }
  return { method: r.method, headers: r.headers, body: form };
}

describe('malformed requests never reach an engine', () => {
  // A service with no engine and no store: a malformed request that got past validation would be a
  // 503 model_unavailable (or a 2xx); each must be a documented 4xx. The browser spec runs all of them.
  test('a seeded sample of every route: documented 4xx only', async () => {
    const documented = documentedErrors(readFileSync('docs/api.md', 'utf8'));
    const ai = service();
    const bad: string[] = [];
    for (const [i, spec] of ROUTE_SPECS.entries()) {
      for (const r of fuzzRoute(spec, 28, 36 + i, 0)) {
        const res = await ai.fetch(ai.baseURL + fill(r.path), init(r));
        const { error } = await res.json();
        if (res.status >= 500 || res.status < 400 || !documented.has(`${res.status} ${error.type} ${error.code}`))
          bad.push(`${r.family} ${r.method} ${r.route}: ${res.status} ${error?.code}`);
      }
    }
    expect(bad).toEqual([]);
  }, 60_000);

  test('a JSON body that is not UTF-8 is 400 invalid_json, not read with U+FFFD', async () => {
    const ai = service();
    const body = new Uint8Array([...Buffer.from('{"model":"chat-v2","input":"a'), 0xff, ...Buffer.from('"}')]);
    const bad = await ai.fetch(`${ai.baseURL}/embeddings`, { ...postJson(''), body });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatchObject({ code: 'invalid_json', message: expect.stringContaining('UTF-8') });
  });

  test('data updates and list queries are checked before the data engine is asked for', async () => {
    const ai = service();
    const answers = await Promise.all(
      [
        ai.fetch(`${ai.baseURL}/vector_stores/vs_1`, postJson([])),
        ai.fetch(`${ai.baseURL}/vector_stores/vs_1`, postJson({ name: 7 })),
        ai.fetch(`${ai.baseURL}/vector_stores/vs_1/files/file-1`, postJson('"x"')),
        ai.fetch(`${ai.baseURL}/files?limit=0`, { headers: AUTH }),
        ai.fetch(`${ai.baseURL}/vector_stores?order=sideways`, { headers: AUTH }),
        ai.fetch(`${ai.baseURL}/vector_stores/vs_1/files?limit=500`, { headers: AUTH }),
      ].map(async (answer) => (await answer).status),
    );
    expect(answers).toEqual([400, 400, 400, 400, 400, 400]);
  });
});
