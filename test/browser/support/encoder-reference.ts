import { basename, dirname } from 'node:path';
import { env, pipeline, type FeatureExtractionPipeline } from '@huggingface/transformers';

const pipelines = new Map<string, Promise<FeatureExtractionPipeline>>();

function extractor(dir: string): Promise<FeatureExtractionPipeline> {
  if (!pipelines.has(dir)) {
    env.localModelPath = `${dirname(dir)}/`;
    env.allowRemoteModels = false;
    pipelines.set(
      dir,
      pipeline('feature-extraction', basename(dir), { dtype: 'fp32' }) as Promise<FeatureExtractionPipeline>,
    );
  }
  return pipelines.get(dir)!;
}

/** transformers.js feature-extraction (node, onnxruntime-node, fp32) on a fixture export: unit vectors by `pooling`. */
export async function referenceEmbeddings(dir: string, texts: string[], pooling: 'mean' | 'cls' = 'mean') {
  const pipe = await extractor(dir);
  return (await pipe(texts, { pooling, normalize: true })).tolist() as number[][];
}

/** The tokenizer's ids with special tokens, as transformers.js gives them (inputs shorter than the maximum). */
export async function referenceIds(dir: string, text: string, specials = true): Promise<number[]> {
  const pipe = await extractor(dir);
  return pipe.tokenizer(text, { add_special_tokens: specials }).input_ids.tolist()[0].map(Number);
}

export const maxAbsDiff = (a: ArrayLike<number>, b: ArrayLike<number>) =>
  Array.from(a).reduce(
    (worst, value, i) => Math.max(worst, Math.abs(value - b[i]!)),
    a.length === b.length ? 0 : Infinity,
  );
