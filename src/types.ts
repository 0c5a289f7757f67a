import type { RemoteOptions } from './runtime/remote';

export type Routing = 'local-first' | 'local-only' | 'remote-first' | 'remote-only';
export type Backend = 'auto' | 'webgpu' | 'wasm';

/** Where a catalogue model's files come from: a hub repo, a base URL, or a same-origin path. */
export interface ModelSource {
  repo?: string;
  revision?: string;
  host?: string;
  baseURL?: string;
  dtype?: string;
}

export interface VaaniOptions {
  /** Where the service answers; resolved against `location`. Default '/v1'. */
  baseURL?: string;
  /** Whether requests must carry `Authorization: Bearer <key>`. Default 'required'. */
  auth?: 'required' | 'optional';
  /** One routing for every model, or one per model id (others stay 'local-first'). */
  routing?: Routing | Record<string, Routing>;
  remote?: RemoteOptions;
  models?: Record<string, ModelSource>;
  /** Which backend local engines use. Default 'auto' (WebGPU when usable, else WASM). */
  backend?: Backend;
  /** Requests that may wait for one engine before new ones get a 429. Default 16. */
  maxQueue?: number;
}

export interface Vaani {
  readonly baseURL: string;
  fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response>;
  install(): void;
  uninstall(): void;
  dispose(): void;
}
