import { createVaaniWith } from '../../../src/page/vaani';
import type { EngineFactory } from '../../../src/page/engines/_registry';
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
