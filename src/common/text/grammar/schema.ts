/** JSON Schema keywords XGrammar enforces (checked against its grammar converter). */
const ENFORCED = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'prefixItems',
  'enum',
  'const',
  'anyOf',
  'oneOf',
  '$ref',
  '$defs',
  'definitions',
  'pattern',
  'format',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
]);

/** Keywords that only describe; they are kept and never constrain. */
const ANNOTATIONS = new Set([
  'title',
  'description',
  'default',
  'examples',
  '$schema',
  '$id',
  '$comment',
  'deprecated',
  'readOnly',
  'writeOnly',
]);

/** String formats XGrammar enforces and OpenAI's structured outputs accept. */
const FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid', 'uri']);

/** Regex features XGrammar's converter refuses: lookaround and back-references. */
const UNSUPPORTED_REGEX = /\(\?<?[=!]|\\[1-9]|\\k</;
/** More it refuses, with a failed check that costs its WASM module some stack each time (so never sent). */
const UNSUPPORTED_ESCAPES = /\\[pP]\{|\\[bB]/;

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
/** Lower and upper bounds that XGrammar refuses when crossed (a schema no value matches). */
const BOUNDS = [
  ['minimum', 'maximum'],
  ['minLength', 'maxLength'],
  ['minItems', 'maxItems'],
] as const;

export interface SchemaCheck {
  /** What cannot be enforced, each naming the keyword and where it is (a JSON pointer). */
  problems: string[];
  /** The schema without what cannot be enforced (what a non-strict request is constrained by). */
  enforceable: unknown;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function patternProblem(pattern: unknown): string | undefined {
  if (typeof pattern !== 'string') return 'is not a string';
  if (UNSUPPORTED_REGEX.test(pattern)) return 'uses lookaround or a back-reference';
  if (UNSUPPORTED_ESCAPES.test(pattern)) return 'uses a word boundary or a Unicode property escape';
  try {
    new RegExp(pattern, 'u');
  } catch {
    return 'is not a valid regular expression';
  }
  return undefined;
}

const typeProblem = (type: unknown) =>
  (Array.isArray(type) ? type : [type]).some((name) => !TYPES.has(name as string))
    ? `'type: ${JSON.stringify(type)}' (types: ${[...TYPES].join(', ')})`
    : undefined;

/** Whether a local `$ref` (`#`, `#/$defs/x`, …) points at something in `root`. */
function resolves(root: unknown, ref: unknown): boolean {
  if (typeof ref !== 'string' || !ref.startsWith('#')) return false;
  let node = root;
  for (const part of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(part).replaceAll('~1', '/').replaceAll('~0', '~');
    if (!isObject(node) || !(key in node)) return false;
    node = node[key];
  }
  return true;
}

/**
 * Walks a JSON Schema and lists what constrained decoding cannot enforce (keywords, regex features,
 * unknown types, unresolved `$ref`s, crossed bounds); with `strict`, also OpenAI's strict-mode rules
 * (every object has `additionalProperties: false` and requires all its properties).
 */
export function checkSchema(schema: unknown, strict: boolean): SchemaCheck {
  const problems: string[] = [];
  const walk = (node: unknown, at: string): unknown => {
    if (typeof node === 'boolean') return node;
    if (!isObject(node)) {
      problems.push(`${at} is not a schema (an object or a boolean)`);
      return {};
    }
    const out: Json = {};
    for (const [key, value] of Object.entries(node)) {
      const here = `${at}/${key}`;
      if (ANNOTATIONS.has(key)) out[key] = value;
      else if (!ENFORCED.has(key)) problems.push(`'${key}' at ${at}`);
      else if (key === 'pattern' && patternProblem(value)) problems.push(`'pattern' at ${at} ${patternProblem(value)}`);
      else if (key === 'type' && typeProblem(value)) problems.push(`${typeProblem(value)} at ${at}`);
      else if (key === '$ref' && !resolves(schema, value))
        problems.push(`'$ref: ${String(value)}' at ${at} (only references inside this schema resolve)`);
      else if (key === 'format' && !FORMATS.has(String(value)))
        problems.push(`'format: ${String(value)}' at ${at} (enforced: ${[...FORMATS].join(', ')})`);
      else if (['properties', '$defs', 'definitions'].includes(key) && isObject(value))
        out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, walk(sub, `${here}/${name}`)]));
      else if (['items', 'additionalProperties'].includes(key)) out[key] = walk(value, here);
      else if (['prefixItems', 'anyOf', 'oneOf'].includes(key) && Array.isArray(value))
        out[key] = value.map((sub, i) => walk(sub, `${here}/${i}`));
      else out[key] = value;
    }
    for (const [low, high] of BOUNDS)
      if (typeof out[low] === 'number' && typeof out[high] === 'number' && out[low] > out[high]) {
        problems.push(`'${low}' (${out[low]}) is greater than '${high}' (${out[high]}) at ${at}`);
        delete out[low];
        delete out[high];
      }
    if (strict && (node.type === 'object' || 'properties' in node)) {
      if (node.additionalProperties !== false)
        problems.push(`${at}: 'additionalProperties' must be false in strict mode`);
      const required = new Set(Array.isArray(node.required) ? node.required : []);
      const missing = Object.keys(isObject(node.properties) ? node.properties : {}).filter(
        (name) => !required.has(name),
      );
      if (missing.length)
        problems.push(`${at}: 'required' must list every property in strict mode (missing ${missing.join(', ')})`);
    }
    return out;
  };
  const enforceable = walk(schema, '#');
  return { problems, enforceable };
}
