/**
 * A worker interface as its handlers implement it: each call also gets its own AbortSignal, first
 * (`exposeEngine` makes it; the host's `cancel` aborts it). The page calls the interface without it.
 */
export type Served<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (signal: AbortSignal, ...args: A) => R : never;
};
