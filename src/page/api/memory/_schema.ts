import * as v from 'valibot';
import type { Filter } from '../../../protocol/collections';
import { defaultModel } from '../../../catalogue/families';

/** The embedding model a request's `model` defaults to. */
const MODEL = defaultModel('/memory');

/** Limits (**Choice**, OpenAI's attribute limits where they exist). */
export const MEMORY_LIMITS = { items: 2048, textChars: 32_768, metadataKeys: 16, stringChars: 512, list: 100 } as const;

const key = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'keys are 1–64 letters, digits, _ . : -'));
const scalar = v.union([
  v.pipe(v.string(), v.maxLength(MEMORY_LIMITS.stringChars)),
  v.pipe(v.number(), v.finite()),
  v.boolean(),
]);

export const scopeSchema = v.pipe(
  v.record(key, v.pipe(v.string(), v.minLength(1), v.maxLength(MEMORY_LIMITS.stringChars))),
  v.check((scope) => Object.keys(scope).length <= 8, 'at most 8 scope fields'),
);
export const metadataSchema = v.pipe(
  v.record(key, scalar),
  v.check(
    (metadata) => Object.keys(metadata).length <= MEMORY_LIMITS.metadataKeys,
    `at most ${MEMORY_LIMITS.metadataKeys} keys`,
  ),
);
const text = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, 'empty text cannot be stored'),
  v.maxLength(MEMORY_LIMITS.textChars),
);

const comparison = v.union([
  v.object({ type: v.picklist(['eq', 'ne', 'gt', 'gte', 'lt', 'lte']), key: v.string(), value: scalar }),
  v.object({ type: v.picklist(['in', 'nin']), key: v.string(), value: v.array(scalar) }),
]);
export const filterSchema: v.GenericSchema<Filter> = v.union(
  [comparison, v.object({ type: v.picklist(['and', 'or']), filters: v.array(v.lazy(() => filterSchema)) })],
  'must be a comparison {type: eq|ne|gt|gte|lt|lte|in|nin, key, value} or {type: and|or, filters}',
);

const item = v.object({ text, metadata: v.optional(metadataSchema, {}), scope: v.optional(scopeSchema, {}) });

export const storeSchema = v.pipe(
  v.object({
    model: v.optional(v.string(), MODEL),
    items: v.optional(v.pipe(v.array(item), v.minLength(1), v.maxLength(MEMORY_LIMITS.items))),
    text: v.optional(text),
    metadata: v.optional(metadataSchema, {}),
    scope: v.optional(scopeSchema, {}),
  }),
  v.check((body) => (body.items === undefined) !== (body.text === undefined), 'send either text or items, not both'),
);

export const searchSchema = v.object({
  model: v.optional(v.string(), MODEL),
  query: text,
  mode: v.optional(v.picklist(['hybrid', 'semantic', 'keyword']), 'hybrid'),
  scope: v.optional(scopeSchema, {}),
  filters: v.optional(filterSchema),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MEMORY_LIMITS.list)), 10),
  min_score: v.optional(v.pipe(v.number(), v.finite())),
});

export const updateSchema = v.pipe(
  v.object({
    model: v.optional(v.string(), MODEL),
    text: v.optional(text),
    metadata: v.optional(metadataSchema),
    scope: v.optional(scopeSchema),
  }),
  v.check(
    (body) => body.text !== undefined || body.metadata !== undefined || body.scope !== undefined,
    'nothing to update: send text, metadata or scope',
  ),
);

export const deleteSchema = v.object({
  model: v.optional(v.string(), MODEL),
  scope: v.pipe(
    scopeSchema,
    v.check((scope) => Object.keys(scope).length > 0, 'name at least one scope field'),
  ),
  filters: v.optional(filterSchema),
});

export const listSchema = v.object({
  limit: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1), v.maxValue(MEMORY_LIMITS.list)), '20'),
  after: v.optional(v.string()),
  order: v.optional(v.picklist(['asc', 'desc']), 'desc'),
  model: v.optional(v.string(), MODEL),
});
