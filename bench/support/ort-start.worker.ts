/**
 * An engine worker's start, alone: onnxruntime-web loaded as Vaani's workers load it
 * (src/common/backends/ort.ts) from the WASM it is given, then one session opened on a one-node
 * graph (onnxruntime-web starts its WASM on the first session).
 */
import { expose } from 'comlink';
import onnxProto from 'onnx-proto';
import { loadOrt } from '../../src/common/backends/ort';
import { fetchWasm, type OrtBuild } from '../../src/common/backends/ort-wasm';
import { useWasmSource } from '../../src/common/backends/wasm-source';

const value = (name: string) => ({
  name,
  type: { tensorType: { elemType: 1, shape: { dim: [{ dimValue: 1 }] } } },
});
const identity = onnxProto.onnx.ModelProto.encode({
  irVersion: 8,
  opsetImport: [{ version: 13 }],
  graph: {
    name: 'g',
    node: [{ opType: 'Identity', input: ['x'], output: ['y'] }],
    input: [value('x')],
    output: [value('y')],
  },
}).finish();

const api = {
  /** `wasm`: the page's compiled module, or the URL of the `.gz` to fetch and inflate here (every worker's own copy). */
  async start(build: OrtBuild, wasm: WebAssembly.Module | string): Promise<void> {
    useWasmSource({ wasm: async () => (typeof wasm === 'string' ? fetchWasm(wasm) : wasm) });
    const ort = await loadOrt(build === 'webgpu', 1);
    await ort.InferenceSession.create(identity, { executionProviders: ['wasm'] });
  },
};

export type OrtStart = typeof api;
expose(api);
