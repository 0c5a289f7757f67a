import { createVaaniWith } from '../../../src/vaani';
import type { EngineFactory } from '../../../src/runtime/engines';
import type { EngineKind } from '../../../src/protocol/engines';
import type { VaaniOptions } from '../../../src/protocol/options';

export const BASE = 'https://example.test/v1';
export const AUTH = { authorization: 'Bearer test-key' };

export function service(options: VaaniOptions = {}, factories: EngineFactory<EngineKind>[] = []) {
  return createVaaniWith({ baseURL: BASE, ...options }, (registry) => factories.forEach((f) => registry.add(f)));
}

export const postJson = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { ...AUTH, 'content-type': 'application/json', ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});
