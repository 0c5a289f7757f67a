import { mkdir, rm, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs module of the bench runner, without types
import { startBenchRemote } from '../../../bench/remote.mjs';

/** The bench's paced server: nested model folders, a log of what it sent, and nothing outside its folder. */
describe('bench/remote.mjs /paced/', () => {
  const folder = `unit-${process.pid}`;
  const dir = new URL(`../../../test/.fixtures/bench-store/${folder}/onnx/`, import.meta.url);
  let remote: { url: string; close(): Promise<void> };

  beforeAll(async () => {
    await mkdir(dir, { recursive: true });
    await writeFile(new URL('model_quantized.onnx', dir), new Uint8Array(300_000).fill(7));
    await writeFile(new URL('espeak-ng.js', dir), 'export default 1;');
    remote = await startBenchRemote();
  });
  afterAll(async () => {
    await remote.close();
    await rm(new URL('../', dir), { recursive: true, force: true });
  });

  it('sends a file of a nested folder, logs the bytes, serves scripts as JavaScript, and 404s the rest', async () => {
    await fetch(`${remote.url}/paced-log`, { method: 'DELETE' });
    const model = await fetch(`${remote.url}/paced/100/${folder}/onnx/model_quantized.onnx`);
    expect(model.status).toBe(200);
    expect((await model.arrayBuffer()).byteLength).toBe(300_000);
    const script = await fetch(`${remote.url}/paced/100/${folder}/onnx/espeak-ng.js`);
    expect(script.headers.get('content-type')).toBe('text/javascript');
    await script.text();
    expect((await fetch(`${remote.url}/paced/100/${folder}/onnx/missing.onnx`)).status).toBe(404);
    expect((await fetch(`${remote.url}/paced/100/${folder}/onnx`)).status).toBe(404);
    expect((await fetch(`${remote.url}/paced/100/${folder}/on%20nx/model_quantized.onnx`)).status).toBe(404);
    const log = await (await fetch(`${remote.url}/paced-log`)).json();
    expect(log).toEqual([
      { path: `${folder}/onnx/model_quantized.onnx`, status: 200, bytes: 300_000 },
      { path: `${folder}/onnx/espeak-ng.js`, status: 200, bytes: 17 },
      { path: `${folder}/onnx/missing.onnx`, status: 404, bytes: 0 },
      { path: `${folder}/onnx`, status: 404, bytes: 0 },
      { path: `${folder}/on%20nx/model_quantized.onnx`, status: 404, bytes: 0 },
    ]);
    expect(await (await fetch(`${remote.url}/paced-log`, { method: 'DELETE' })).json()).toEqual([]);
  });
});
