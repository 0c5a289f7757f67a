import { afterEach, describe, expect, it } from 'vitest';
import { startRemote } from '../../support/remote-server';
import { service } from './helpers';

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
