import * as v from 'valibot';
import { defaultModel } from '../../catalogue/families';
import { filterSchema, metadataSchema } from './memory/_schema';

/** Limits (**Choice**, OpenAI's where it has them). */
export const DATA_LIMITS = { list: 100, results: 50, filesPerCall: 500, queryChars: 4096 } as const;

export const PURPOSES = ['assistants', 'user_data', 'batch', 'fine-tune', 'vision', 'evals'] as const;

/** Attributes of a store file: OpenAI's 16 keys of strings (≤ 512 characters), numbers or booleans. */
const attributesSchema = metadataSchema;

/** A vector store's metadata: OpenAI's 16 string pairs. */
const storeMetadata = v.pipe(
  v.record(v.pipe(v.string(), v.maxLength(64)), v.pipe(v.string(), v.maxLength(512))),
  v.check((metadata) => Object.keys(metadata).length <= 16, 'at most 16 keys'),
);

const expiresAfter = v.object({
  anchor: v.literal('last_active_at'),
  days: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(365)),
});

/** OpenAI's chunking strategies: `auto`, or `static` with 100–4096 tokens and at most half of them overlapping. */
export const chunkingSchema = v.union(
  [
    v.object({ type: v.literal('auto') }),
    v.object({
      type: v.literal('static'),
      static: v.pipe(
        v.object({
          max_chunk_size_tokens: v.pipe(v.number(), v.integer(), v.minValue(100), v.maxValue(4096)),
          chunk_overlap_tokens: v.pipe(v.number(), v.integer(), v.minValue(0)),
        }),
        v.check(
          (s) => s.chunk_overlap_tokens * 2 <= s.max_chunk_size_tokens,
          'chunk_overlap_tokens must not exceed half of max_chunk_size_tokens',
        ),
      ),
    }),
  ],
  "must be {type: 'auto'} or {type: 'static', static: {max_chunk_size_tokens, chunk_overlap_tokens}}",
);

const fileIds = v.pipe(v.array(v.pipe(v.string(), v.minLength(1))), v.maxLength(DATA_LIMITS.filesPerCall));

export const createStoreSchema = v.object({
  name: v.optional(v.pipe(v.string(), v.maxLength(256)), ''),
  file_ids: v.optional(fileIds, []),
  metadata: v.optional(storeMetadata, {}),
  expires_after: v.optional(v.nullable(expiresAfter), null),
  chunking_strategy: v.optional(chunkingSchema),
});

export const updateStoreSchema = v.object({
  name: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(256)))),
  metadata: v.optional(v.nullable(storeMetadata)),
  expires_after: v.optional(v.nullable(expiresAfter)),
});

export const addFileSchema = v.object({
  file_id: v.pipe(v.string(), v.minLength(1)),
  attributes: v.optional(v.nullable(attributesSchema)),
  chunking_strategy: v.optional(chunkingSchema),
});

export const addBatchSchema = v.pipe(
  v.object({
    file_ids: v.optional(fileIds),
    files: v.optional(v.pipe(v.array(addFileSchema), v.maxLength(DATA_LIMITS.filesPerCall))),
    attributes: v.optional(v.nullable(attributesSchema)),
    chunking_strategy: v.optional(chunkingSchema),
  }),
  v.check((body) => (body.file_ids === undefined) !== (body.files === undefined), 'send either file_ids or files'),
);

export const updateFileSchema = v.object({ attributes: v.nullable(attributesSchema) });

export const searchSchema = v.object({
  query: v.union([
    v.pipe(v.string(), v.trim(), v.minLength(1, 'an empty query finds nothing'), v.maxLength(DATA_LIMITS.queryChars)),
    v.pipe(v.array(v.pipe(v.string(), v.minLength(1))), v.minLength(1), v.maxLength(8)),
  ]),
  filters: v.optional(v.nullable(filterSchema)),
  max_num_results: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(DATA_LIMITS.results)), 10),
  ranking_options: v.optional(
    v.object({
      ranker: v.optional(v.picklist(['auto', 'default-2024-11-15', 'none'])),
      score_threshold: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(1))),
    }),
  ),
  rewrite_query: v.optional(v.boolean()),
});

export const listSchema = v.object({
  limit: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1), v.maxValue(DATA_LIMITS.list)), '20'),
  order: v.optional(v.picklist(['asc', 'desc']), 'desc'),
  after: v.optional(v.string()),
  before: v.optional(v.string()),
  purpose: v.optional(v.string()),
  filter: v.optional(v.picklist(['in_progress', 'completed', 'failed', 'cancelled'])),
});

/** POST /data/query (**Choice**, docs/api.md § Data). */
export const querySchema = v.pipe(
  v.object({
    model: v.optional(v.string(), defaultModel('/data/query')),
    query: v.pipe(
      v.string(),
      v.trim(),
      v.minLength(1, 'an empty query finds nothing'),
      v.maxLength(DATA_LIMITS.queryChars),
    ),
    vector_store_ids: v.optional(v.pipe(v.array(v.pipe(v.string(), v.minLength(1))), v.minLength(1), v.maxLength(8))),
    dataset: v.optional(v.pipe(v.string(), v.minLength(1))),
    filters: v.optional(v.nullable(filterSchema)),
    max_num_results: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(DATA_LIMITS.results)), 5),
    score_threshold: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(1))),
    mode: v.optional(v.picklist(['search', 'answer']), 'answer'),
    stream: v.optional(v.boolean(), false),
    instructions: v.optional(v.pipe(v.string(), v.maxLength(DATA_LIMITS.queryChars))),
    max_tokens: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
    temperature: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(2))),
    seed: v.optional(v.pipe(v.number(), v.integer())),
  }),
  v.check(
    (body) => (body.vector_store_ids === undefined) !== (body.dataset === undefined),
    'name the stores: vector_store_ids or dataset (one of them)',
  ),
);
