import { afterEach, describe, expect, it } from 'vitest';
import { startRemote } from '../../support/remote-server';
import { imagesEngines } from '../../../src/page/engines/images';
import type { EngineHosts } from '../../../src/page/hosts/engine-hosts';
import { AUTH, BASE, postJson, service } from './helpers';

let remote: Awaited<ReturnType<typeof startRemote>> | undefined;
afterEach(() => remote?.close());

describe('ai.images through a remote', () => {
  it("forwards the streamed request without ai.images' progress extension, and reads the remote's completed events", async () => {
    const png = Uint8Array.of(137, 80, 78, 71, 13, 10, 26, 10);
    remote = await startRemote((_seen, res) => {
      const completed = {
        type: 'image_generation.completed',
        b64_json: Buffer.from(png).toString('base64'),
        size: '1024x1024',
      };
      res.writeHead(200, { 'content-type': 'text/event-stream', 'x-vaani-seed': '7' });
      res.end(`event: image_generation.completed\ndata: ${JSON.stringify(completed)}\n\ndata: [DONE]\n\n`);
      return true;
    });
    const ai = service({ remote: { baseURL: remote.url } });
    const progress: unknown[] = [];
    ai.images.addEventListener('progress', (event) => progress.push((event as CustomEvent).detail));
    const result = await ai.images.generate('a Warli peacock', { seed: 7, style: 'warli' });
    expect(result.size).toBe('1024x1024');
    expect(new Uint8Array(await result.images[0]!.arrayBuffer())).toEqual(png);
    expect(progress).toEqual([]);
    const sent = JSON.parse(remote.requests[0]!.body);
    expect(remote.requests[0]!.url).toBe('/v1/images/generations');
    expect(sent).toEqual({ prompt: 'a Warli peacock', seed: 7, style: 'warli', stream: true });
    // The in-page handover header stays in the page.
    expect(Object.keys(remote.requests[0]!.headers)).not.toContain('x-vaani-deliver');
  });
});

describe('the default image-v1 (fp16) on a browser without WebGPU', () => {
  /** The page's images engine over a host that records any start of its worker. */
  const defaultEngine = () => {
    const started: string[] = [];
    const hosts = {
      host: () => ({
        run: async () => {
          started.push('worker');
          throw new Error('started');
        },
        dispose() {},
      }),
    } as unknown as EngineHosts;
    return { started, factories: imagesEngines({}, hosts) };
  };

  it('answers 503 model_needs_webgpu before any worker starts or any file is fetched', async () => {
    const { started, factories } = defaultEngine();
    const ai = service({}, factories);
    const response = await ai.fetch(
      `${BASE}/images/generations`,
      postJson({ prompt: 'a Warli peacock', style: 'warli' }),
    );
    expect(response.status).toBe(503);
    const { error } = await response.json();
    expect(error).toMatchObject({ code: 'model_needs_webgpu', param: 'model' });
    expect(error.message).toMatch(/fp16, which needs WebGPU with shader-f16.*remote/);
    expect(started).toEqual([]);
    const { data } = await (await ai.fetch(`${BASE}/models`, { headers: AUTH })).json();
    expect(data.find((m: { id: string }) => m.id === 'image-v1').runs_on.local).toEqual([]);
  });

  it('goes to the remote where one is configured, saying why', async () => {
    remote = await startRemote((_seen, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ created: 1, data: [{ b64_json: 'iVBORw0KGgo=' }] }));
      return true;
    });
    const { started, factories } = defaultEngine();
    const ai = service({ remote: { baseURL: remote.url } }, factories);
    const response = await ai.fetch(`${BASE}/images/generations`, postJson({ prompt: 'a Madhubani fish' }));
    expect(response.status).toBe(200);
    expect(response.headers.get('x-vaani-engine')).toBe('remote');
    expect(response.headers.get('x-vaani-fallback')).toMatch(/local: .*shader-f16/);
    expect(started).toEqual([]);
  });
});
