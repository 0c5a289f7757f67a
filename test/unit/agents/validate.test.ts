import { describe, expect, it } from 'vitest';
import { validate } from '../../../src/page/services/agents/validate';

describe('validate (tool arguments)', () => {
  const schema = {
    type: 'object',
    properties: {
      city: { type: 'string', minLength: 2 },
      days: { type: 'integer', minimum: 1, maximum: 7 },
      unit: { enum: ['c', 'f'] },
      tags: { type: 'array', items: { type: 'string' } },
    },
    required: ['city'],
    additionalProperties: false,
  };

  it('accepts valid arguments', () => {
    expect(validate({ city: 'Pune', days: 3, unit: 'c', tags: ['a'] }, schema)).toEqual([]);
  });

  it('names each problem with its path', () => {
    expect(validate({ days: 9.5, unit: 'k', tags: [1], x: 1 }, schema)).toEqual([
      "$: missing required property 'city'",
      '$.days: expected integer, got number',
      '$.unit: must be one of ["c","f"]',
      '$.tags[0]: expected string, got integer',
      "$: unexpected property 'x'",
    ]);
    expect(validate([], schema)).toEqual(['$: expected object, got array']);
  });
});
