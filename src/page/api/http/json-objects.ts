import * as v from 'valibot';

/**
 * Schema types that stand for a JSON object. valibot's own take an array as well (`[]` passes as
 * `{}`, `["a"]` as a record `{"0": "a"}`); a request field typed as an object must refuse one.
 */
const OBJECT_TYPES = new Set(['object', 'loose_object', 'strict_object', 'object_with_rest', 'record', 'variant']);

type Dataset = { value: unknown; typed?: boolean; issues?: unknown[] };
type Run = (this: object, dataset: Dataset, config: v.Config<v.BaseIssue<unknown>>) => Dataset;
type Node = { kind?: string; type?: string; '~run': Run; getter?: (input: unknown) => unknown } & Record<
  string,
  unknown
>;

const hardened = new WeakSet<object>();

/**
 * Makes every object-typed schema inside `schema` refuse an array as a wrong type (400
 * `invalid_type` naming the field), in place and once; `parse()` applies it to every route's schema.
 */
export function refuseArrays<S>(schema: S): S {
  visit(schema);
  return schema;
}

function visit(value: unknown): void {
  if (typeof value !== 'object' || value === null || hardened.has(value)) return;
  hardened.add(value);
  const node = value as Node;
  if (node.kind === 'schema' && OBJECT_TYPES.has(node.type!)) {
    const run = node['~run'];
    node['~run'] = function (dataset, config) {
      if (!Array.isArray(dataset.value)) return run.call(this, dataset, config);
      v._addIssue(this as Parameters<typeof v._addIssue>[0], 'type', dataset as never, config);
      return dataset;
    };
  }
  if (node.type === 'lazy' && node.getter) {
    const getter = node.getter;
    node.getter = (input) => refuseArrays(getter(input));
  }
  const lists = [node.options, node.items, node.pipe].filter(Array.isArray);
  const entries = typeof node.entries === 'object' && node.entries !== null ? Object.values(node.entries) : [];
  for (const child of [node.wrapped, node.item, node.key, node.value, node.rest, ...lists.flat(), ...entries])
    visit(child);
}
