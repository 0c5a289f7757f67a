import { EventSourceParserStream } from 'eventsource-parser/stream';

/**
 * The `data` of each Server-Sent Event in `body` (any `event:` name), read by the spec, up to
 * `data: [DONE]` or the end; the body is cancelled when the reader stops early.
 */
export async function* sseData(body: ReadableStream<Uint8Array<ArrayBuffer>>): AsyncGenerator<string> {
  const reader = body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      if (next.value.data === '[DONE]') return;
      yield next.value.data;
    }
  } finally {
    void reader.cancel().catch(() => undefined);
  }
}
