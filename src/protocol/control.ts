/** What every engine worker answers besides its own methods. */
export interface EngineControl {
  /** Answers at once when the worker's event loop is free; the host's watchdog uses it. */
  ping(): boolean;
  /** Aborts the running call's signal (the host calls it when the job's signal aborts). */
  cancel(): void;
  /** Bytes of the model files the worker holds loaded (the host's memory budget counts them). */
  footprint(): number;
  /**
   * A port on which the worker asks its page for onnxruntime-web's WASM (a `WasmSource`,
   * src/common/backends/ort-wasm.ts): the page prepares each build once for all its workers.
   */
  runtime(port: MessagePort): void;
}

/** The message a busy worker posts to say it is still working (the host's watchdog counts it as an answer). */
export const PROGRESS_MESSAGE = 'vaani:progress';

/**
 * Posted before one long call that keeps the worker's event loop busy (a whole encoder run): the
 * host's watchdog lets the worker be silent for `ms` from now.
 */
export interface BlockingNotice {
  type: typeof PROGRESS_MESSAGE;
  ms: number;
}
