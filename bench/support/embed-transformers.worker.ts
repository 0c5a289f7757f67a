/** transformers.js feature-extraction (mean pooling, normalised) on the bench encoder, in its own worker. */
import { pipeline, type FeatureExtractionPipeline } from '@huggingface/transformers';
import { expose } from 'comlink';
import { transformersThreads, useLocalTransformers } from './transformers-env';

let extractor: FeatureExtractionPipeline;

const api = {
  async load(base: string, threads: number, dtype: 'fp32' | 'q8' = 'fp32'): Promise<number> {
    const folder = new URL(base, location.href);
    useLocalTransformers(new URL('..', folder).pathname, threads);
    const name = folder.pathname.split('/').at(-2)!;
    extractor = (await pipeline('feature-extraction', name, {
      dtype,
      device: 'wasm',
    })) as FeatureExtractionPipeline;
    return transformersThreads();
  },
  async embed(texts: string[]): Promise<number> {
    const start = performance.now();
    await extractor(texts, { pooling: 'mean', normalize: true });
    return performance.now() - start;
  },
};

export type EmbedTransformers = typeof api;
expose(api);
