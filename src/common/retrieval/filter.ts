import type { Filter, Metadata, Scalar } from '../../protocol/collections';

const ordered = (a: Scalar | undefined, b: Scalar) =>
  a !== undefined && typeof a === typeof b && typeof a !== 'boolean';

/**
 * Whether `metadata` passes `filter`. Order comparisons need both sides of one type (numbers
 * with numbers, strings by code point); a missing key fails every comparison but `ne` and `nin`.
 */
export function matches(filter: Filter, metadata: Metadata): boolean {
  switch (filter.type) {
    case 'and':
      return filter.filters.every((inner) => matches(inner, metadata));
    case 'or':
      return filter.filters.some((inner) => matches(inner, metadata));
    case 'in':
      return filter.value.includes(metadata[filter.key] as Scalar);
    case 'nin':
      return !filter.value.includes(metadata[filter.key] as Scalar);
  }
  const actual = metadata[filter.key];
  const { value } = filter;
  switch (filter.type) {
    case 'eq':
      return actual === value;
    case 'ne':
      return actual !== value;
    case 'gt':
      return ordered(actual, value) && actual! > value;
    case 'gte':
      return ordered(actual, value) && actual! >= value;
    case 'lt':
      return ordered(actual, value) && actual! < value;
    case 'lte':
      return ordered(actual, value) && actual! <= value;
  }
}
