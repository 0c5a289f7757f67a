import { describe, expect, it } from 'vitest';
import { createVaani } from '../../src/index';

describe('createVaani', () => {
  it('answers /v1/models for an absolute baseURL', async () => {
    const ai = createVaani({ baseURL: 'https://example.test/v1' });
    const res = await ai.fetch('https://example.test/v1/models', { headers: { authorization: 'Bearer k' } });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.data.map((m: { id: string }) => m.id)).toContain('chat-v2');
  });
});
