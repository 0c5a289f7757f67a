import { EngineError } from '../../../protocol/errors';
import type { RemoteOptions } from '../../../protocol/options';
import { DELIVER_HEADER } from '../../../protocol/images';

const HOP_BY_HOP = ['host', 'content-length', 'connection', 'keep-alive', 'transfer-encoding'];
/** Headers that only mean something inside the page (ai.images' handover), never sent on. */
const IN_PAGE = [DELIVER_HEADER];

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/** Forwards requests to a remote server with the same /v1 API. */
export class Remote {
  private readonly base: string;

  constructor(
    private readonly options: RemoteOptions,
    private readonly send: typeof fetch,
  ) {
    this.base = options.baseURL.replace(/\/+$/, '');
  }

  /**
   * Sends `path` (relative to /v1, e.g. '/chat/completions') with the caller's method, headers and
   * body. The remote's status, headers and body come back as they are; a streaming body is passed
   * through chunk by chunk. Only non-streaming requests are retried.
   */
  async forward(
    path: string,
    request: Request,
    body: Uint8Array<ArrayBuffer> | null,
    streaming: boolean,
  ): Promise<Response> {
    const headers = new Headers(request.headers);
    for (const name of [...HOP_BY_HOP, ...IN_PAGE]) headers.delete(name);
    if (this.options.apiKey) headers.set('authorization', `Bearer ${this.options.apiKey}`);
    const init: RequestInit = {
      method: request.method,
      headers,
      body: body?.byteLength ? body : null,
      signal: request.signal,
    };
    const url = this.base + path + new URL(request.url).search;
    const attempts = streaming ? 1 : (this.options.attempts ?? 3);
    let lastError: unknown;
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0) await sleep((this.options.backoffMs ?? 250) * 2 ** (attempt - 1), request.signal);
      try {
        const response = await this.send(url, init);
        if (response.status < 500 || attempt === attempts - 1) return response;
        await response.body?.cancel();
        lastError = new Error(`status ${response.status}`);
      } catch (error) {
        if (request.signal.aborted) throw error;
        lastError = error;
      }
    }
    throw new EngineError(
      'upstream',
      `The remote at ${this.base} could not be reached (${(lastError as Error).message}).`,
      'remote_unreachable',
    );
  }
}
