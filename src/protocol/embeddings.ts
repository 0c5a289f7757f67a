import type { EmbeddingSettings } from './options';
import type { ModelJob } from './jobs';
/** The embedding types shared by the routes (embeddings, memory, data) and the engine. */

/** Which side of a search an input is on: the model's prefix convention (e5: `query: ` / `passage: `). */
export type EmbeddingPurpose = 'query' | 'passage';

export interface EmbedParams {
  /** Texts, or token ids of the model's vocabulary (special tokens are added around them). */
  input: string[] | number[][];
  /** Put the model's prefix for this purpose before each text; absent on /v1/embeddings (raw input). */
  purpose?: EmbeddingPurpose;
}

/** What produced a vector: recorded beside every stored vector so two models' vectors never mix. */
export interface EmbeddingModel {
  /** Catalogue id, e.g. 'embed-v1'. */
  id: string;
  /** Where the weights came from (hub repo or base URL) and their revision. */
  source: string;
  revision: string;
  dimensions: number;
  /** The prefixes the model puts before queries and passages ('' when it has none). */
  prefixes: Record<EmbeddingPurpose, string>;
  /** Whether `dimensions` may cut vectors short (Matryoshka-trained models). */
  truncatable: boolean;
}

export interface Embeddings {
  /** Unit-length vectors (when the model normalises), in input order. */
  vectors: Float32Array[];
  /** Tokens read, special tokens included, after truncation. */
  tokens: number;
  /** Indices of inputs cut at the model's maximum length. */
  truncated: number[];
  model: EmbeddingModel;
}

export interface EmbeddingsEngine {
  embed(params: EmbedParams, signal: AbortSignal): Promise<Embeddings>;
}

export interface EmbeddingsJob extends ModelJob {
  settings?: EmbeddingSettings;
  params: EmbedParams;
}

export interface EmbeddingsOutput {
  vectors: Float32Array[];
  tokens: number;
  paddedTokens: number;
  truncated: number[];
  dimensions: number;
  prefixes: { query: string; passage: string };
  backend: string;
}

/** The embeddings worker's API (src/worker/embeddings/embeddings.worker.ts satisfies it). */
export interface EmbeddingsWorker {
  embed(job: EmbeddingsJob): Promise<EmbeddingsOutput>;
}
