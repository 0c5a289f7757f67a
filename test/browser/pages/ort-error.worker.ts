import { createSession, loadOrt } from '../../../src/common/backends/ort';

/** Runs a graph (bytes posted in) that fails inside onnxruntime, the way the engines' workers load it; answers the error. */
self.onmessage = async ({ data: graph }: MessageEvent<Uint8Array>) => {
  const ort = await loadOrt(false);
  const session = await createSession(ort, { backend: 'wasm', graph, externalData: [] });
  try {
    await session.run({
      x: new ort.Tensor('float32', new Float32Array(3), [3]),
      shape: new ort.Tensor('int64', BigInt64Array.from([2n]), [1]),
    });
    self.postMessage('ran');
  } catch (error) {
    self.postMessage((error as Error).message);
  }
};
