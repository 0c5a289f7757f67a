import * as ortNode from 'onnxruntime-node';
import type { Ort } from '../../../../src/common/backends/ort';

/** onnxruntime-node behind the web runtime's interface (its CPU provider stands in for 'wasm'). */
export const ort = {
  ...ortNode,
  InferenceSession: {
    create: (graph: Uint8Array, options: object) =>
      ortNode.InferenceSession.create(graph, { ...options, executionProviders: ['cpu'] }),
  },
} as unknown as Ort;
