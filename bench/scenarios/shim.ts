import { createApp } from '../../src/page/api/http/app';
import type { Services } from '../../src/page/api/http/dispatch';
import { ResponseHistory } from '../../src/page/services/responses/history';
import { ToolRegistry } from '../../src/page/services/agents/registry';
import { EngineRegistry } from '../../src/page/engines/_registry';
import { Remote } from '../../src/page/api/http/remote';
import { createVaaniWith } from '../../src/page/vaani';
import { quantile, timePaired } from '../support/stats';
import type { Scenario, ScenarioResult } from '../types';

const headers = { authorization: 'Bearer bench' };

/** Shim overhead: ai.fetch against the same Hono handler called directly, for JSON and for SSE. */
const shim: Scenario = async (env) => {
  const remote = { baseURL: `${env.remoteURL}/v1` };
  const ai = createVaaniWith({ baseURL: 'https://bench.test/v1', remote }, () => {});
  const ctx: Services = {
    registry: new EngineRegistry(),
    routing: () => 'local-first',
    builtin: {},
    remote: new Remote(remote, fetch.bind(globalThis)),
    responses: new ResponseHistory(),
    tools: new ToolRegistry(),
    runs: new ResponseHistory(),
    runApprovers: new WeakMap(),
    self: () => Promise.reject(new Error('no self-calls in this bench')),
  };
  const app = createApp(ctx, '/v1', 'required');
  const url = 'https://bench.test/v1/models';

  const json = await timePaired(
    2000,
    async () => (await ai.fetch(url, { headers })).json(),
    async () => (await app.fetch(new Request(url, { headers }))).json(),
  );

  const chat = JSON.stringify({
    model: 'chat-v2',
    messages: [{ role: 'user', content: 'x' }],
    stream: true,
    metadata: { n: 50 },
  });
  const init = () => ({ method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: chat });
  const sse = await timePaired(
    300,
    async () => (await ai.fetch('https://bench.test/v1/chat/completions', init())).text(),
    async () => (await app.fetch(new Request('https://bench.test/v1/chat/completions', init()))).text(),
  );

  const rows: ScenarioResult[] = [];
  for (const [name, times, what] of [
    ['json', json, 'GET /v1/models'],
    ['sse', sse, 'SSE stream of 50 chunks (remote pass-through)'],
  ] as const) {
    for (const q of [0.5, 0.95]) {
      rows.push({
        id: `shim.${name}.p${q * 100}`,
        metric: `${what}: latency p${q * 100} through ai.fetch`,
        unit: 'ms',
        value: quantile(times.a, q),
        baseline: { name: 'the same Hono handler called directly', value: quantile(times.b, q) },
        higherIsBetter: false,
      });
    }
  }
  return rows;
};

export default shim;
