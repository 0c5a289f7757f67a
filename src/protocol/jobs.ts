import type { Backend, StoreOptions } from './options';

/** Where a worker's model comes from and how to run it. */
export interface ModelJob {
  /** The catalogue id, under which the weight store records the files. */
  model: string;
  /** Base URL of the model's files. */
  base: string;
  store?: StoreOptions;
  dtype?: string;
  backend: Backend;
  threads?: number;
  /** Chat: decode by graph capture with a cache of this many tokens (`ModelSource.chat.graphCapture`). */
  capture?: number;
}
