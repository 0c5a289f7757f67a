import type { BareLoad, BareRun, BareTiming } from './chat-bare.worker';

/**
 * The bare onnxruntime-web loop in a worker of its own (chat-bare.worker.ts), its session started:
 * `heapBytes` is its heap then, `run` times a prompt and steps. Errors are named by `label`.
 */
export async function startBare(load: BareLoad, label = 'bare loop') {
  const worker = new Worker(new URL('./chat-bare.worker.ts', import.meta.url), { type: 'module' });
  const call = <T>(message: { load?: BareLoad; run?: BareRun }) =>
    new Promise<T>((resolve, reject) => {
      worker.onmessage = ({ data }) => (data.error ? reject(new Error(`${label}: ${data.error}`)) : resolve(data as T));
      worker.postMessage(message);
    });
  const { heapBytes } = await call<{ heapBytes: number }>({ load });
  return {
    heapBytes,
    run: (request: BareRun) => call<BareTiming>({ run: request }),
    terminate: () => worker.terminate(),
  };
}
