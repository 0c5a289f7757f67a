import { describe, expect, it } from 'vitest';
import { dataClient } from '../../../src/page/clients/data';
import { APIError, BadRequestError, RateLimitError } from '../../../src/page/clients/errors';

/** A fetcher answering /data/query with an event stream of `events`. */
const streaming = (events: object[]) => async () =>
  new Response(events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join(''), {
    headers: { 'content-type': 'text/event-stream' },
  });

describe('ai.data.ask', () => {
  it("raises a stream's error event with the status of its type", async () => {
    const busy = { error: { message: 'queue full', type: 'rate_limit_error', code: 'engine_busy', param: null } };
    const ai = dataClient(streaming([busy]) as typeof fetch, 'https://page.test/v1');
    const error = await ai.ask('where?', { stores: ['vs_1'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'engine_busy', message: 'queue full' });

    const bad = { error: { message: 'too long', type: 'invalid_request_error', code: 'context_length_exceeded' } };
    const second = await dataClient(streaming([bad]) as typeof fetch, 'https://page.test/v1')
      .ask('where?', { stores: ['vs_1'] })
      .catch((e: unknown) => e);
    expect(second).toBeInstanceOf(BadRequestError);
    expect(second).toMatchObject({ status: 400, code: 'context_length_exceeded' });
  });

  it('a stream that ends without its final object is a 500', async () => {
    const ai = dataClient(streaming([]) as typeof fetch, 'https://page.test/v1');
    const error = await ai.ask('where?', { stores: ['vs_1'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toMatchObject({ status: 500, code: 'internal_error' });
  });

  it('reads any well-formed event stream: CRLF lines, `data:` without a space, named events, comments', async () => {
    const final = { object: 'data.query', answer: { content: 'Pier seven.' } };
    const text =
      ': keep-alive\r\n\r\n' +
      `event: chunk\r\ndata:${JSON.stringify({ object: 'data.query.chunk', delta: { content: 'Pier ' } })}\r\n\r\n` +
      `data: ${JSON.stringify({ object: 'data.query.chunk', delta: { content: 'seven.' } })}\r\n\r\n` +
      `data:${JSON.stringify(final)}\r\n\r\ndata: [DONE]\r\n\r\n`;
    const fetcher = async () => new Response(text, { headers: { 'content-type': 'text/event-stream' } });
    const pieces: string[] = [];
    const answer = await dataClient(fetcher as typeof fetch, 'https://page.test/v1').ask('where?', {
      stores: ['vs_1'],
      onText: (piece: string) => pieces.push(piece),
    });
    expect(pieces).toEqual(['Pier ', 'seven.']);
    expect(answer).toEqual(final);
  });
});
