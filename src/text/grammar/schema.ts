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
  try {
    new RegExp(pattern, 'u');
  } catch {
    return 'is not a valid regular expression';
  }
  return undefined;
}

/**
 * Walks a JSON Schema and lists what constrained decoding cannot enforce; with `strict`, also
 * OpenAI's strict-mode rules (every object has `additionalProperties: false` and requires all its
 * properties).
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
      else if (key === 'format' && !FORMATS.has(String(value)))
        problems.push(`'format: ${String(value)}' at ${at} (enforced: ${[...FORMATS].join(', ')})`);
      else if (['properties', '$defs', 'definitions'].includes(key) && isObject(value))
        out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, walk(sub, `${here}/${name}`)]));
      else if (['items', 'additionalProperties'].includes(key)) out[key] = walk(value, here);
      else if (['prefixItems', 'anyOf', 'oneOf'].includes(key) && Array.isArray(value))
        out[key] = value.map((sub, i) => walk(sub, `${here}/${i}`));
      else out[key] = value;
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
