import type { ModelSource } from '../types';

/**
 * Where catalogue models come from by default (people with network): public onnx-community
 * exports of Qwen3, which covers Hindi, Bengali, Tamil, Telugu, Marathi, Gujarati and other Indian
 * languages among its 119. Apache-2.0. `createVaani({ models: { id: source } })` overrides any of them.
 */
export const DEFAULT_SOURCES: Record<string, ModelSource> = {
  'chat-v2': { repo: 'onnx-community/Qwen3-0.6B-ONNX' },
  'chat-v2-pro': { repo: 'onnx-community/Qwen3-1.7B-ONNX' },
  /** Whisper base (multilingual, Hindi and 10 more Indian languages; q8: 23 MB encoder + 54 MB decoder). */
  'speech-stt-v1': { repo: 'onnx-community/whisper-base' },
  /** multilingual-e5-small (MIT, 384 dimensions, ~94 languages; q8 ≈ 118 MB): mean pooling, e5's prefixes. */
  'embed-v1': {
    repo: 'Xenova/multilingual-e5-small',
    embedding: { prefixes: { query: 'query: ', passage: 'passage: ' } },
  },
};

/** A model's source: the user's override (merged over the default, so `{ dtype }` alone works). */
export function modelSource(id: string, overrides: Record<string, ModelSource> = {}): ModelSource {
  const override = overrides[id];
  const fallback = DEFAULT_SOURCES[id];
  if (!override) {
    if (!fallback) throw new Error(`No source is known for model '${id}'.`);
    return fallback;
  }
  return override.repo || override.baseURL ? override : { ...fallback, ...override };
}
