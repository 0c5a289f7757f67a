import Papa from 'papaparse';
import type { Metadata, Scalar } from '../../protocol/collections';
import { DocumentError, type Block } from './types';

/** Longest string kept as a record attribute (longer values stay in the text only). */
const MAX_ATTRIBUTE_CHARS = 512;

/** `a.b[0].c`-style leaves of a JSON value. */
function leaves(value: unknown, path: string, out: [string, unknown][]): void {
  if (value && typeof value === 'object') {
    const entries = Array.isArray(value) ? value.map((v, i) => [`${path}[${i}]`, v] as const) : Object.entries(value);
    for (const [key, inner] of entries) leaves(inner, Array.isArray(value) ? key : path ? `${path}.${key}` : key, out);
    if (!entries.length) out.push([path, Array.isArray(value) ? '[]' : '{}']);
  } else out.push([path, value]);
}

/** One record as a block: `key: value` lines for the text, scalar fields as attributes. */
export function recordBlock(record: unknown, label?: string): Block {
  if (!record || typeof record !== 'object') {
    const text = String(record ?? '').trim();
    return { text: label ? `${label}: ${text}` : text, headings: [], fields: {} };
  }
  const flat: [string, unknown][] = [];
  leaves(record, '', flat);
  const fields: Metadata = {};
  const lines: string[] = [];
  for (const [key, value] of flat) {
    if (value === null || value === undefined || value === '') continue;
    lines.push(`${key}: ${String(value)}`);
    if (typeof value === 'number' || typeof value === 'boolean') fields[key] = value as Scalar;
    else if (typeof value === 'string' && value.length <= MAX_ATTRIBUTE_CHARS) fields[key] = value;
  }
  return { text: lines.join('\n'), headings: label ? [label] : [], fields };
}

/**
 * JSON: an array is one record per element; an object whose only array value holds the records
 * (`{"products": [...]}`) is read as that array; any other object is one record.
 */
export function parseJson(text: string, name: string): Block[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new DocumentError('corrupt', `"${name}" is not valid JSON: ${(error as Error).message}`);
  }
  if (Array.isArray(value)) return value.map((record) => recordBlock(record));
  if (value && typeof value === 'object') {
    const arrays = Object.entries(value).filter(([, inner]) => Array.isArray(inner));
    if (arrays.length === 1 && Object.keys(value).length === 1) {
      const [key, records] = arrays[0]! as [string, unknown[]];
      return records.map((record) => recordBlock(record, key));
    }
  }
  return [recordBlock(value)];
}

/** JSON Lines: one record per non-empty line; a bad line names its number. */
export function parseJsonLines(text: string, name: string): Block[] {
  return text.split(/\r?\n/).flatMap((line, index) => {
    if (!line.trim()) return [];
    try {
      return [recordBlock(JSON.parse(line))];
    } catch (error) {
      throw new DocumentError('corrupt', `"${name}" line ${index + 1} is not valid JSON: ${(error as Error).message}`);
    }
  });
}

/** CSV / TSV with a header row (by Papa Parse): one record per row, numbers and booleans typed. */
export function parseCsv(text: string, name: string, delimiter?: string): Block[] {
  const result = Papa.parse<Record<string, unknown>>(text.replace(/^\ufeff/, ''), {
    header: true,
    skipEmptyLines: 'greedy',
    dynamicTyping: true,
    delimiter,
  });
  const fatal = result.errors.find((error) => error.type === 'Quotes');
  if (fatal) throw new DocumentError('corrupt', `"${name}" is not valid CSV: ${fatal.message} (row ${fatal.row}).`);
  return result.data.map((row) => {
    const { __parsed_extra: extra, ...fields } = row as Record<string, unknown>;
    return recordBlock(extra ? { ...fields, extra } : fields);
  });
}
