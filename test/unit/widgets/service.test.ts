import { describe, expect, it } from 'vitest';
import type { Vaani } from '../../../src/page/vaani';
import { APIError, InternalServerError } from '../../../src/index';
import { streamChat, transcribe, voiceFor } from '../../../src/widgets/service';

/** A stand-in for `ai` that answers every request with `respond` and records what was asked. */
function fakeVaani(respond: (request: Request) => Response) {
  const requests: Request[] = [];
  const ai = {
    baseURL: 'https://page.test/v1',
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      requests.push(request.clone());
      return respond(request);
    },
  } as unknown as Vaani;
  return { ai, requests };
}

const sse = (events: string[]) =>
  new Response(
    new ReadableStream({
      start(controller) {
        // Split across chunk boundaries on purpose.
        const text = events.map((e) => `data: ${e}\n\n`).join('');
        for (let i = 0; i < text.length; i += 7) controller.enqueue(new TextEncoder().encode(text.slice(i, i + 7)));
        controller.close();
      },
    }),
    { headers: { 'content-type': 'text/event-stream', 'x-vaani-backend': 'wasm' } },
  );

describe('widget route calls', () => {
  it('streamChat parses SSE deltas and usage, asks for usage, sends the Bearer key', async () => {
    const { ai, requests } = fakeVaani(() =>
      sse([
        JSON.stringify({ choices: [{ delta: { role: 'assistant', content: '' } }] }),
        JSON.stringify({ choices: [{ delta: { content: 'नम' } }] }),
        JSON.stringify({ choices: [{ delta: { content: 'स्ते' } }] }),
        JSON.stringify({ choices: [{ delta: {}, finish_reason: 'stop' }] }),
        JSON.stringify({ choices: [], usage: { completion_tokens: 2 } }),
        '[DONE]',
      ]),
    );
    const stream = await streamChat(ai, { model: 'chat-v2', messages: [] }, new AbortController().signal);
    const deltas = [];
    for await (const delta of stream.deltas) deltas.push(delta);
    expect(stream.backend).toBe('wasm');
    expect(deltas).toEqual([{ content: 'नम' }, { content: 'स्ते' }, { completionTokens: 2 }]);
    const body = await requests[0]!.json();
    expect(body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(requests[0]!.headers.get('authorization')).toMatch(/^Bearer \S+/);
  });

  it('streamChat reads CRLF-separated events and ignores comments (the SSE spec, as a remote may send)', async () => {
    const text = [': ping', `data: ${JSON.stringify({ choices: [{ delta: { content: 'ok' } }] })}`, 'data: [DONE]']
      .map((e) => `${e}\r\n\r\n`)
      .join('');
    const { ai } = fakeVaani(() => new Response(text, { headers: { 'content-type': 'text/event-stream' } }));
    const stream = await streamChat(ai, {}, new AbortController().signal);
    const deltas = [];
    for await (const delta of stream.deltas) deltas.push(delta);
    expect(deltas).toEqual([{ content: 'ok' }]);
  });

  it('an error event mid-stream and an error status become APIErrors with the route code and status', async () => {
    const { ai } = fakeVaani(() =>
      sse([JSON.stringify({ error: { message: 'worker died', code: 'engine_crashed', type: 'server_error' } })]),
    );
    const stream = await streamChat(ai, {}, new AbortController().signal);
    const died = await stream.deltas.next().catch((e: unknown) => e);
    expect(died).toBeInstanceOf(APIError);
    expect(died).toMatchObject({ code: 'engine_crashed', message: 'worker died', status: 500 });

    const missing = fakeVaani(() =>
      Response.json({ error: { message: 'no files', code: 'model_unavailable' } }, { status: 503 }),
    );
    const error = await transcribe(missing.ai, new File(['x'], 'a.wav'), { model: 'speech-stt-v1' }).catch((e) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ code: 'model_unavailable', status: 503 });
  });

  it('transcribe posts multipart to transcriptions or translations with the language', async () => {
    const { ai, requests } = fakeVaani(() => Response.json({ text: '  hello  ' }));
    expect(await transcribe(ai, new File(['x'], 'a.wav'), { model: 'm', language: 'hi', translate: true })).toBe(
      'hello',
    );
    expect(new URL(requests[0]!.url).pathname).toBe('/v1/audio/translations');
    const form = await requests[0]!.formData();
    expect(form.get('language')).toBe('hi');
    expect(form.get('model')).toBe('m');
  });

  it('voiceFor picks the exact locale, then the language, then any voice', async () => {
    const voices = [
      { id: 'en-US-female-1', languageCode: 'en-US' },
      { id: 'hi-IN-female-1', languageCode: 'hi-IN' },
      { id: 'en-IN-female-1', languageCode: 'en-IN' },
    ];
    const { ai } = fakeVaani(() => Response.json({ voices }));
    expect(await voiceFor(ai, 'en-IN')).toBe('en-IN-female-1');
    expect(await voiceFor(ai, 'hi')).toBe('hi-IN-female-1');
    expect(await voiceFor(ai, 'ta')).toBe('en-US-female-1');
  });

  it("voiceFor never picks a non-commercial voice under licences: 'commercial'; 'any' may", async () => {
    const voices = [
      { id: 'hi-IN-mms-1', languageCode: 'hi-IN', commercial: false },
      { id: 'hi-IN-female-1', languageCode: 'hi-IN', commercial: true },
    ];
    const strict = fakeVaani(() => Response.json({ voices, licences: 'commercial' }));
    expect(await voiceFor(strict.ai, 'hi-IN')).toBe('hi-IN-female-1');
    const open = fakeVaani(() => Response.json({ voices, licences: 'any' }));
    expect(await voiceFor(open.ai, 'hi-IN')).toBe('hi-IN-mms-1');
  });
});
