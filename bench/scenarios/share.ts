import type { createVaani } from '../../src/index';
import { heldBytes } from '../support/memory';
import { quantile, timeEach, timePaired } from '../support/stats';
import type { Scenario, ScenarioResult } from '../types';

/** bench/prepare/chat.ts writes the model (Qwen2.5-0.5B layer sizes, 2 layers, fp32) and this pointer to it. */
const POINTER = '/test/.fixtures/bench-chat.json';
const MiB = 2 ** 20;
/** A tiny model for the crossing row, where the engine's own time should be small beside the overhead. */
const TINY = '/shared/fixtures/tiny-random-llama-fp16-genai/';

type Vaani = ReturnType<typeof createVaani>;

/** A same-origin frame with its own Vaani: a tab of the site, as far as sharing is concerned. */
async function openTab(share: boolean, base: string): Promise<{ ai: Vaani; window: Window; close(): void }> {
  const frame = document.createElement('iframe');
  frame.src = '/bench/share-tab.html';
  document.body.append(frame);
  const win = frame.contentWindow as Window & { createVaani?: typeof createVaani };
  while (win.document.title !== 'ready') await new Promise((resolve) => setTimeout(resolve, 20));
  const models = { 'chat-v2': { baseURL: base, dtype: 'fp32' }, 'chat-v2-pro': { baseURL: TINY } };
  const ai = win.createVaani!({ backend: 'wasm', share, models });
  return {
    ai,
    window: win,
    close: () => {
      ai.dispose();
      frame.remove();
    },
  };
}

/** p50 ms of a round trip over a MessageChannel between two tabs' windows (the echo runs in `to`). */
async function portRoundTrip(from: Window, to: Window): Promise<number> {
  const channel = new (from as Window & { MessageChannel: typeof MessageChannel }).MessageChannel();
  (to as Window & { eval(code: string): (port: MessagePort) => void }).eval(
    '(port) => { port.onmessage = (event) => port.postMessage(event.data); }',
  )(channel.port2);
  const times = await timeEach(1000, async () => {
    await new Promise((resolve) => {
      channel.port1.onmessage = resolve;
      channel.port1.postMessage({ type: 'call', id: 1, method: 'complete', args: [{ model: 'chat-v2-pro' }] });
    });
  });
  channel.port1.close();
  return quantile(times, 0.5);
}

/** Milliseconds to the first streamed content of a one-token answer. */
async function firstToken(ai: Vaani, model = 'chat-v2', stream = true): Promise<number> {
  const started = performance.now();
  const response = await ai.fetch('/v1/chat/completions', {
    method: 'POST',
    headers: { authorization: 'Bearer bench', 'content-type': 'application/json' },
    body: JSON.stringify({
      model,
      messages: [{ role: 'user', content: 'नमस्ते' }],
      max_tokens: 1,
      stream,
    }),
  });
  await response.text();
  if (!response.ok) throw new Error(`chat failed: ${response.status}`);
  return performance.now() - started;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 500));

/** Page memory with `count` tabs that each answered once, sharing or not. */
async function memoryWith(count: number, share: boolean, base: string): Promise<number> {
  const tabs = [];
  for (let i = 0; i < count; i++) {
    const tab = await openTab(share, base);
    tabs.push(tab);
    await firstToken(tab.ai);
  }
  await settle();
  const bytes = (await heldBytes()) ?? Number.NaN;
  for (const tab of tabs) tab.close();
  await settle();
  return bytes;
}

/**
 * One chat model for every tab: memory with 1, 2 and 3 tabs using it (frames of the bench page,
 * each with its own Vaani), the first token in a second tab once the first has loaded the model,
 * and what a request pays for crossing to the tab that holds the engine.
 */
const share: Scenario = async (env) => {
  const base = new URL((await (await fetch(POINTER)).json()).url, location.href).href;
  const rows: ScenarioResult[] = [];

  const shared = [];
  for (const count of [1, 2, 3]) shared.push(await memoryWith(count, true, base));
  const unshared = await memoryWith(2, false, base);
  env.log(
    `memory MiB, shared 1/2/3 tabs: ${shared.map((b) => (b / MiB).toFixed(0)).join(' / ')}; 2 unshared: ${(unshared / MiB).toFixed(0)}`,
  );
  for (const [i, count] of [2, 3].entries())
    rows.push({
      id: `share.memory.${count}-tabs`,
      metric: `page memory with ${count} tabs using one chat model (2-layer Qwen2.5-0.5B shapes, fp32), shared`,
      unit: 'MiB',
      value: shared[i + 1]! / MiB,
      baseline: { name: 'one tab', value: shared[0]! / MiB },
      higherIsBetter: false,
      notes: count === 2 ? { unsharedTwoTabsMiB: unshared / MiB } : undefined,
    });

  const first = await openTab(true, base);
  const cold = await firstToken(first.ai);
  const warmHolder = quantile(
    [await firstToken(first.ai), await firstToken(first.ai), await firstToken(first.ai)],
    0.5,
  );
  const second = await openTab(true, base);
  const secondFirst = await firstToken(second.ai);
  rows.push({
    id: 'share.second-tab.ttft',
    metric: "time to first token of a second tab's first request, once the first tab has loaded the model",
    unit: 'ms',
    value: secondFirst,
    baseline: { name: 'the first tab, warm', value: warmHolder },
    higherIsBetter: false,
    notes: { coldFirstTabMs: cold },
  });

  // Crossing tabs: a one-token answer of the tiny model, from each tab, the engine in the first;
  // 200 pairs in alternating order, the overhead being the median of the pairs' differences.
  await firstToken(first.ai, 'chat-v2-pro');
  for (const stream of [true, false]) {
    const times = await timePaired(
      200,
      () => firstToken(second.ai, 'chat-v2-pro', stream),
      () => firstToken(first.ai, 'chat-v2-pro', stream),
      true,
    );
    const [follower, holder] = [quantile(times.a, 0.5), quantile(times.b, 0.5)];
    const overhead = quantile(
      times.a.map((t, i) => t - times.b[i]!),
      0.5,
    );
    env.log(
      `one-token ${stream ? 'streamed' : 'plain'} answer p50: ${follower.toFixed(2)} ms from the second tab, ${holder.toFixed(2)} ms in the holder; paired difference p50 ${overhead.toFixed(2)} ms`,
    );
    rows.push({
      id: stream ? 'share.crossing.p50' : 'share.crossing.plain.p50',
      metric: `one-token ${stream ? 'streamed' : 'non-streamed'} chat answer p50 (tiny model), from a tab whose engine another tab holds`,
      unit: 'ms',
      value: follower,
      baseline: { name: 'the same request in the holding tab', value: holder },
      higherIsBetter: false,
      notes: {
        overheadMs: overhead,
        overheadMethod: 'median of paired differences, 200 pairs, order alternating',
        p95: quantile(times.a, 0.95),
        holderP95: quantile(times.b, 0.95),
      },
    });
  }
  const hop = await portRoundTrip(first.window, second.window);
  env.log(`MessagePort round trip between the two tabs: p50 ${hop.toFixed(3)} ms`);
  rows.push({
    id: 'share.crossing.port-round-trip',
    metric:
      'a MessagePort round trip between two tabs of the site (a crossing request sends 2 + one per streamed event one way)',
    unit: 'ms',
    value: hop,
    baseline: null,
    higherIsBetter: false,
    notes: { runs: 1000 },
  });
  second.close();
  first.close();
  return rows;
};

export default share;
