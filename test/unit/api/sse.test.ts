import { describe, expect, it } from 'vitest';
import { sseResponse } from '../../../src/page/api/http/sse';

describe('sseResponse', () => {
  it('writes data events and [DONE], flushing each when produced', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const res = sseResponse(new AbortController().signal, async (sink) => {
      sink.send({ n: 1 });
      await gate;
      sink.send({ n: 2 });
    });
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    expect((await reader.read()).value).toBe('data: {"n":1}\n\n');
    release();
    let rest = '';
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += r.value;
    expect(rest).toBe('data: {"n":2}\n\ndata: [DONE]\n\n');
  });

  it('ends a failed stream with an error event in the OpenAI shape', async () => {
    const res = sseResponse(new AbortController().signal, async () => {
      throw new Error('engine fell over');
    });
    const text = await res.text();
    expect(JSON.parse(text.split('\n\n')[0]!.slice(6))).toMatchObject({
      error: { message: 'Internal error: engine fell over', type: 'server_error', code: 'internal_error' },
    });
  });

  it('aborts the producer when the reader cancels', async () => {
    let producerSignal!: AbortSignal;
    const res = sseResponse(new AbortController().signal, (sink) => {
      producerSignal = sink.signal;
      return new Promise(() => {});
    });
    await res.body!.cancel();
    expect(producerSignal.aborted).toBe(true);
  });
});
