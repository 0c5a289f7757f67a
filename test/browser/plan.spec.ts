import { expect, test, type Page } from '@playwright/test';
import { FOLDER_MANIFEST, type FolderManifest } from '../../src/common/weights';
import type { ModelPlan } from '../../src/page/services/plan';
import { manifestFolder } from './support/manifest-folder';
import { openHarness } from './support/page';

let url: string;
let manifest: FolderManifest;
let remove: () => Promise<void>;

test.beforeAll(async () => {
  ({ url, manifest, remove } = await manifestFolder('plan'));
});
test.afterAll(() => remove());

/** Device profiles, installed before the page's scripts: what navigator reports. */
interface Profile {
  deviceMemory?: number | null;
  connection?: { saveData: boolean; effectiveType: string; downlink: number } | null;
  /** null: the WebGPU API gives no adapter; an object: an adapter with these limits. */
  gpu?: { f16: boolean; maxBufferSize: number; maxStorageBufferBindingSize: number } | null | 'absent';
}

function fakeDevice(profile: Profile) {
  const define = (name: string, value: unknown) =>
    value === null
      ? delete (Navigator.prototype as unknown as Record<string, unknown>)[name]
      : Object.defineProperty(Navigator.prototype, name, { get: () => value, configurable: true });
  if (profile.deviceMemory !== undefined) define('deviceMemory', profile.deviceMemory);
  if (profile.connection !== undefined) define('connection', profile.connection);
  const gpu = profile.gpu;
  if (gpu === 'absent') define('gpu', null);
  else if (gpu !== undefined) {
    const adapter = gpu && {
      features: new Set(gpu.f16 ? ['shader-f16'] : []),
      limits: { maxBufferSize: gpu.maxBufferSize, maxStorageBufferBindingSize: gpu.maxStorageBufferBindingSize },
    };
    define('gpu', { requestAdapter: async () => adapter });
  }
}

const LOW: Profile = {
  deviceMemory: 2,
  gpu: null,
  connection: { saveData: true, effectiveType: '4g', downlink: 10 },
};
const MID: Profile = { deviceMemory: 4, gpu: null, connection: { saveData: false, effectiveType: '4g', downlink: 10 } };
const HIGH: Profile = {
  deviceMemory: 8,
  gpu: { f16: true, maxBufferSize: 2 ** 32, maxStorageBufferBindingSize: 2 ** 31 },
  connection: { saveData: false, effectiveType: '4g', downlink: 10 },
};
const SILENT: Profile = { deviceMemory: null, connection: null, gpu: 'absent' };

/** Every request the page and its workers make for model files: the folder's (its manifest aside) and the hub's. */
async function watchModelFiles(page: Page) {
  const seen: string[] = [];
  page.context().on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith(url) && !path.endsWith(FOLDER_MANIFEST)) seen.push(`${request.method()} ${path}`);
  });
  // The hub is out of reach in tests: any request to it is a model file the planner should not have asked for.
  await page.context().route(/huggingface\.co/, (route) => {
    seen.push(`${route.request().method()} ${route.request().url()}`);
    return route.abort();
  });
  return seen;
}

async function openWith(page: Page, profile: Profile) {
  await page.addInitScript(fakeDevice, profile);
  return openHarness(page);
}

/** ai.plan and the SDK's models.retrieve for each id, on a Vaani made with `options`. */
async function plans(page: Page, ids: string[], options: Record<string, unknown>) {
  return page.evaluate(
    async ({ ids, options }) => {
      const ai = window.Vaani.createVaani(options);
      const client = new window.OpenAI({
        baseURL: ai.baseURL,
        apiKey: 'k',
        fetch: ai.fetch,
        dangerouslyAllowBrowser: true,
      });
      const out: Record<string, { plan: unknown; retrieved: unknown }> = {};
      for (const id of ids) {
        const retrieved = (await client.models.retrieve(id)) as unknown as { x_vaani: unknown };
        out[id] = { plan: await ai.plan(id), retrieved: retrieved.x_vaani };
      }
      return out;
    },
    { ids, options },
  ) as Promise<Record<string, { plan: ModelPlan; retrieved: ModelPlan }>>;
}

test('a pulled folder: exact bytes from its manifest, no model file fetched while planning, cached bytes after a load', async ({
  page,
}) => {
  const errors = await openWith(page, MID);
  const seen = await watchModelFiles(page);
  const result = await page.evaluate(async (base) => {
    const ai = window.Vaani.createVaani({ models: { 'chat-v2': { baseURL: base } } });
    const client = new window.OpenAI({
      baseURL: ai.baseURL,
      apiKey: 'k',
      fetch: ai.fetch,
      dangerouslyAllowBrowser: true,
    });
    await ai.models.clear();
    const before = await ai.plan('chat-v2');
    const retrieved = (await client.models.retrieve('chat-v2')) as unknown as { x_vaani: unknown };
    const agent = await ai.plan('agents');
    return { before, retrieved: retrieved.x_vaani, agent };
  }, url);
  expect(seen, 'planning requested model files').toEqual([]);
  const { before, retrieved, agent } = result as unknown as {
    before: ModelPlan;
    retrieved: ModelPlan;
    agent: ModelPlan;
  };
  const listed = new Map(manifest.files.map((f) => [f.name, f.size]));
  const read = before.download.files!;
  expect(read.map((f) => f.name)).toEqual(
    expect.arrayContaining(['tokenizer.json', 'onnx/model.onnx', 'onnx/model.onnx_data']),
  );
  for (const file of read) expect(file.size).toBe(listed.get(file.name));
  expect(before.download).toMatchObject({
    exact: true,
    basis: 'manifest',
    cached_bytes: 0,
    bytes: read.reduce((sum, f) => sum + listed.get(f.name)!, 0),
  });
  expect(before.download.remaining_bytes).toBe(before.download.bytes);
  expect(before.decision).toMatchObject({ run: 'local', backend: 'wasm', dtype: 'fp32', code: 'fits' });
  expect(before.device).toMatchObject({ memory_bytes: 4 * 2 ** 30, gpu: { adapter: false } });
  expect(before.network).toMatchObject({ save_data: false, effective_type: '4g', downlink_mbps: 10 });
  expect(before.device.storage!.quota).toBeGreaterThan(0);
  expect({ ...retrieved, device: null }).toEqual({ ...before, device: null });
  expect(agent).toMatchObject({ model: 'agent-v1', files_of: 'chat-v2', download: { bytes: before.download.bytes } });

  // Loading fetches the files (that is allowed); the plan then says they are cached.
  const after = await page.evaluate(async (base) => {
    const ai = window.Vaani.createVaani({ models: { 'chat-v2': { baseURL: base } } });
    await ai.models.load('chat-v2');
    return ai.plan('chat');
  }, url);
  expect(seen.length).toBeGreaterThan(0);
  expect(after.download).toMatchObject({ cached_bytes: before.download.bytes, remaining_bytes: 0, seconds: 0 });
  expect(after.decision).toMatchObject({ run: 'local', code: 'cached' });
  expect(errors).toEqual([]);
});

test('low profile (2 GB, no adapter, Save-Data): chat goes to the remote with a reason, embeddings stay local; no byte fetched', async ({
  page,
}) => {
  const errors = await openWith(page, LOW);
  const seen = await watchModelFiles(page);
  const result = await plans(page, ['chat-v2', 'embed-v1'], { remote: { baseURL: 'http://127.0.0.1:9/v1' } });
  expect(seen).toEqual([]);
  const chat = result['chat-v2']!;
  // The storage estimate moves as the page's own IndexedDB is opened: the rest is the same object.
  expect({ ...chat.retrieved, device: { ...chat.retrieved.device, storage: null } }).toEqual({
    ...chat.plan,
    device: { ...chat.plan.device, storage: null },
  });
  // The small tier (Qwen2.5-0.5B) fits 2 GB, where the medium one would not: Save-Data sends it to the remote.
  expect(chat.plan.tier).toMatchObject({ tier: 'small', by: 'device', code: 'save_data', applied: true });
  expect(chat.plan.decision).toMatchObject({ run: 'remote', code: 'save_data' });
  expect(chat.plan.download).toMatchObject({ bytes: 512e6, exact: false, basis: 'catalogue' });
  // Its memory: the fit-memory bench's measurement of Qwen2.5-0.5B-Instruct's shapes, q8 on WASM.
  expect(chat.plan.memory).toMatchObject({ bytes: 765_203_236, basis: 'measured' });
  expect(chat.plan.network.save_data).toBe(true);
  const embed = result['embed-v1']!.plan;
  expect(embed.download).toMatchObject({ bytes: 135e6, exact: false, basis: 'catalogue', seconds: 108 });
  expect(embed.decision).toMatchObject({ run: 'remote', code: 'save_data' });
  expect(errors).toEqual([]);
});

test('mid profile without a remote: local on WASM; code-v1 with the measured memory', async ({ page }) => {
  const errors = await openWith(page, MID);
  const seen = await watchModelFiles(page);
  const result = await plans(page, ['code-v1', 'chat-v2'], {});
  expect(seen).toEqual([]);
  const code = result['code-v1']!.plan;
  expect(code.decision).toMatchObject({ run: 'local', backend: 'wasm', dtype: 'q8', code: 'fits' });
  expect(code.memory).toMatchObject({ bytes: 756_238_366, basis: 'measured' });
  expect(code.download).toMatchObject({ bytes: 0.5e9, basis: 'catalogue', seconds: 400 });
  expect(result['chat-v2']!.plan.decision).toMatchObject({ run: 'local', backend: 'wasm', dtype: 'q8' });
  expect(errors).toEqual([]);
});

test('high profile (8 GB, a WebGPU adapter with shader-f16): WebGPU, q4f16, the adapter limits reported', async ({
  page,
}) => {
  const errors = await openWith(page, HIGH);
  const seen = await watchModelFiles(page);
  const plan = (await plans(page, ['chat-v2'], {}))['chat-v2']!.plan;
  expect(seen).toEqual([]);
  expect(plan.decision).toMatchObject({ run: 'local', backend: 'webgpu', dtype: 'q4f16', code: 'fits' });
  // The large tier (Qwen3-1.7B) fits 8 GB on WebGPU.
  expect(plan.tier).toMatchObject({ tier: 'large', code: 'fits', model: 'Qwen3-1.7B' });
  expect(plan.download).toMatchObject({ bytes: 1.2e9, basis: 'catalogue', exact: false });
  expect(plan.device.gpu).toEqual({
    adapter: true,
    f16: true,
    max_buffer_size: 2 ** 32,
    max_storage_buffer_binding_size: 2 ** 31,
  });
  expect(errors).toEqual([]);
});

test('a browser that reports nothing: a conservative plan with the reason unknown, never a crash', async ({ page }) => {
  const errors = await openWith(page, SILENT);
  const seen = await watchModelFiles(page);
  const result = await page.evaluate(async () => {
    const local = await window.Vaani.createVaani({}).plan('chat');
    const remote = await window.Vaani.createVaani({ remote: { baseURL: 'http://127.0.0.1:9/v1' } }).plan('voice');
    return { local, remote };
  });
  expect(seen).toEqual([]);
  expect(result.local.decision).toMatchObject({ run: 'local', backend: 'wasm', code: 'unknown' });
  expect(result.local.decision.reason).toMatch(/^unknown: /);
  expect(result.local.unknown).toEqual(expect.arrayContaining(['memory', 'network', 'gpu']));
  expect(result.local.device).toMatchObject({ memory_bytes: null, gpu: null });
  expect(result.local.download.seconds).toBeNull();
  expect(result.remote).toMatchObject({ model: 'speech-stt-v1', decision: { run: 'remote', code: 'unknown' } });
  expect(errors).toEqual([]);
});

test('an unknown model or voice: 404 from the route, a NotFoundError from ai.plan; a voice plans its weights', async ({
  page,
}) => {
  const errors = await openWith(page, MID);
  const result = await page.evaluate(async () => {
    const ai = window.Vaani.createVaani({});
    const client = new window.OpenAI({
      baseURL: ai.baseURL,
      apiKey: 'k',
      fetch: ai.fetch,
      dangerouslyAllowBrowser: true,
    });
    const caught = (error: unknown) => {
      const e = error as { name: string; status: number; code: string; message: string };
      return { name: e.name, status: e.status, code: e.code, message: e.message };
    };
    return {
      route: await client.models.retrieve('no-such-model').then(() => null, caught),
      plan: await ai.plan('no-such-model').then(() => null, caught),
      next: (await ai.plan('memory')).model,
      // A voice plans its weights; eSpeak's voices none; an unknown voice or a bad language is refused.
      kokoro: await ai.plan('speech-tts-v1', { voice: 'hi-IN-kokoro-alpha' }),
      espeak: (await ai.plan('speech-tts-v1', { voice: 'hi-IN-female-1' })).download.basis,
      noVoice: await ai.plan('speech-tts-v1', { voice: 'nope' }).then(() => null, caught),
      badLanguage: await ai.plan('voice', { language: 'Hindi' }).then(() => null, caught),
      viaRoute: await ai
        .fetch(`${ai.baseURL}/models/speech-tts-v1?voice=hi-IN-kokoro-alpha`, {
          headers: { authorization: 'Bearer k' },
        })
        .then(async (r) => (await r.json()).x_vaani?.model),
      routeBad: await ai
        .fetch(`${ai.baseURL}/models/speech-stt-v1?language=Hindi`, { headers: { authorization: 'Bearer k' } })
        .then(async (r) => ({ status: r.status, code: (await r.json()).error?.code })),
    };
  });
  expect(result.kokoro).toMatchObject({ model: 'kokoro-82m', download: { basis: 'catalogue', exact: false } });
  expect(result.kokoro.download.bytes).toBeGreaterThan(50e6);
  expect(result.espeak).toBe('none');
  expect(result.noVoice).toMatchObject({ name: 'NotFoundError', status: 404, code: 'voice_not_found' });
  expect(result.badLanguage).toMatchObject({ name: 'TypeError' });
  expect(result.viaRoute).toBe('kokoro-82m');
  expect(result.routeBad).toEqual({ status: 400, code: 'invalid_value' });
  expect(result.route).toMatchObject({ status: 404, code: 'model_not_found' });
  expect(result.plan).toMatchObject({ name: 'NotFoundError', status: 404, code: 'model_not_found' });
  expect(result.plan!.message).toMatch(/no-such-model/);
  expect(result.next).toBe('embed-v1');
  expect(errors).toEqual([]);
});
