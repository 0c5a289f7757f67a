import { afterEach, describe, expect, it, vi } from 'vitest';
import { chooseSource } from '../../../demo/sources';

const files = [{ name: 'onnx/model.onnx', size: 4 }];

describe("the demo's local folder", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("points agent-v1 at chat-v2's files unless the folder has its own, and lists it missing only with chat-v2", async () => {
    vi.stubGlobal('location', { href: 'http://demo.test/' });
    const serve = (models: Record<string, typeof files>) =>
      vi.stubGlobal('fetch', async () => Response.json({ models }));
    serve({ 'chat-v2': files });
    const shared = await chooseSource('folder', '/models');
    expect(shared.models['agent-v1']).toBeUndefined();
    expect(shared.models['code-v1']).toEqual({ baseURL: 'http://demo.test/models/code-v1/' });
    expect(shared.missing).not.toContain('agent-v1');
    expect(shared.missing).toContain('code-v1-base');
    serve({ 'chat-v2': files, 'agent-v1': files });
    const own = await chooseSource('folder', '/models');
    expect(own.models['agent-v1']).toEqual({ baseURL: 'http://demo.test/models/agent-v1/', files });
    serve({});
    expect((await chooseSource('folder', '/models')).missing).toContain('agent-v1');
  });
});
