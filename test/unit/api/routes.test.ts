/**
 * The file-per-path rule of src/page/api/ (docs/architecture.md): every module there that is not
 * HTTP plumbing (`http/`) or a helper (a name starting with `_`) is the route its path spells,
 * `{param}` folders and all, and every path of routes.ts is the module at its own file.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../../src/page/api/routes';

const API = fileURLToPath(new URL('../../../src/page/api/', import.meta.url));

const routeFiles = readdirSync(API, { recursive: true, encoding: 'utf8' })
  .map((file) => file.replaceAll('\\', '/'))
  .filter(
    (file) =>
      file.endsWith('.ts') && !file.startsWith('http/') && !file.split('/').some((part) => part.startsWith('_')),
  )
  .filter((file) => file !== 'routes.ts');

const pathOf = (file: string) => `/${file.replace(/\.ts$/, '')}`;

describe('src/page/api: one file per URL path', () => {
  it('has a route file for every path of routes.ts and a path for every route file', () => {
    expect(routeFiles.map(pathOf).sort()).toEqual(Object.keys(ROUTES).sort());
  });

  it.each(routeFiles)('%s is the module routes.ts mounts at its path', async (file) => {
    const module = (await import(`${API}${file}`)) as Record<string, unknown>;
    expect(ROUTES[pathOf(file) as keyof typeof ROUTES]).toBe(module);
    const methods = Object.keys(module).filter((name) => ['GET', 'POST', 'DELETE'].includes(name));
    expect(methods.length).toBeGreaterThan(0);
  });

  it('names its params as OpenAI does, and lists a static path before a sibling {param}', () => {
    const paths = Object.keys(ROUTES);
    for (const param of paths.join('').match(/\{\w+\}/g) ?? [])
      expect(['{model}', '{response_id}', '{file_id}', '{vector_store_id}', '{batch_id}', '{memory_id}']).toContain(
        param,
      );
    paths.forEach((path, at) => {
      const parent = path.slice(0, path.lastIndexOf('/'));
      if (!/\/\{\w+\}$/.test(path)) return;
      const laterStatic = paths
        .slice(at + 1)
        .filter((p) => p.startsWith(`${parent}/`) && !p.slice(parent.length + 1).includes('/') && !p.endsWith('}'));
      expect(laterStatic, `${path} comes before`).toEqual([]);
    });
  });
});
