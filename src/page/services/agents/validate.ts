type Schema = Record<string, unknown>;

const typeOf = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'array'
      : typeof value === 'number' && Number.isInteger(value)
        ? 'integer'
        : typeof value;

const matchesType = (value: unknown, type: string) =>
  type === 'number' ? typeof value === 'number' : type === typeOf(value);

/**
 * Checks a value against the JSON Schema keywords tool arguments use (type, properties, required,
 * additionalProperties: false, enum, const, items, minimum/maximum, minLength/maxLength); returns the
 * problems, each with its path. Other keywords are not checked (the grammar already enforced them).
 */
export function validate(value: unknown, schema: Schema, path = '$'): string[] {
  const problems: string[] = [];
  const types = schema.type === undefined ? [] : ([] as unknown[]).concat(schema.type).map(String);
  if (types.length && !types.some((type) => matchesType(value, type)))
    return [`${path}: expected ${types.join(' or ')}, got ${typeOf(value)}`];
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => JSON.stringify(option) === JSON.stringify(value)))
    problems.push(`${path}: must be one of ${JSON.stringify(schema.enum)}`);
  if ('const' in schema && JSON.stringify(schema.const) !== JSON.stringify(value))
    problems.push(`${path}: must be ${JSON.stringify(schema.const)}`);
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) problems.push(`${path}: below ${schema.minimum}`);
    if (typeof schema.maximum === 'number' && value > schema.maximum) problems.push(`${path}: above ${schema.maximum}`);
  }
  if (typeof value === 'string') {
    const length = [...value].length;
    if (typeof schema.minLength === 'number' && length < schema.minLength) problems.push(`${path}: too short`);
    if (typeof schema.maxLength === 'number' && length > schema.maxLength) problems.push(`${path}: too long`);
  }
  if (Array.isArray(value) && schema.items && typeof schema.items === 'object')
    value.forEach((item, i) => problems.push(...validate(item, schema.items as Schema, `${path}[${i}]`)));
  if (typeOf(value) === 'object') {
    const object = value as Record<string, unknown>;
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    for (const key of (schema.required ?? []) as string[])
      if (!(key in object)) problems.push(`${path}: missing required property '${key}'`);
    for (const [key, item] of Object.entries(object)) {
      if (properties[key]) problems.push(...validate(item, properties[key], `${path}.${key}`));
      else if (schema.additionalProperties === false) problems.push(`${path}: unexpected property '${key}'`);
    }
  }
  return problems;
}
