import { toApiError } from './errors';

const encoder = new TextEncoder();

export interface SseSink {
  /** One event; `event` adds an `event:` line (the Responses API names its events). */
  send(data: unknown, event?: string): void;
  readonly signal: AbortSignal;
}

/**
 * A text/event-stream response: each `send` is one `data: <json>` event, flushed when produced;
 * `data: [DONE]` closes it. The producer's signal aborts when the request's does or the reader cancels.
 */
export function sseResponse(
  requestSignal: AbortSignal,
  produce: (sink: SseSink) => Promise<void>,
  headers: Record<string, string> = {},
): Response {
  const stop = new AbortController();
  const abort = () => stop.abort(requestSignal.reason ?? new DOMException('The request was aborted.', 'AbortError'));
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (requestSignal.aborted) abort();
      requestSignal.addEventListener(
        'abort',
        () => {
          abort();
          try {
            controller.error(stop.signal.reason);
          } catch {
            /* already closed */
          }
        },
        { once: true },
      );
      const sink: SseSink = {
        signal: stop.signal,
        send: (data, event) => {
          const name = event ? `event: ${event}\n` : '';
          if (!stop.signal.aborted) controller.enqueue(encoder.encode(`${name}data: ${JSON.stringify(data)}\n\n`));
        },
      };
      produce(sink).then(
        () => {
          if (stop.signal.aborted) return;
          controller.enqueue(encoder.encode('data: [DONE]\n\n'));
          controller.close();
        },
        (error) => {
          if (stop.signal.aborted) return;
          controller.enqueue(encoder.encode(`data: ${JSON.stringify(errorEvent(error))}\n\n`));
          controller.close();
        },
      );
    },
    cancel() {
      abort();
    },
  });
  return new Response(body, {
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', ...headers },
  });
}

/** An error after the stream started: its own OpenAI error body (code, type, param), as the SDKs read it. */
const errorEvent = (error: unknown) => toApiError(error).body;
