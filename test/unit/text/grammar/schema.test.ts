import { describe, expect, it } from 'vitest';
import { checkSchema } from '../../../../src/common/text/grammar/schema';

describe('checkSchema', () => {
  const strictPerson = {
    type: 'object',
    title: 'Person',
    properties: { name: { type: 'string', pattern: '^[A-Z]' }, tags: { type: 'array', items: { enum: ['a', 'b'] } } },
    required: ['name', 'tags'],
    additionalProperties: false,
  };

  it('accepts what XGrammar enforces and keeps annotations', () => {
    expect(checkSchema(strictPerson, true)).toEqual({ problems: [], enforceable: strictPerson });
  });

  it('names every keyword it cannot enforce, with where it is, and drops them from the enforceable schema', () => {
    const schema = {
      type: 'object',
      properties: {
        n: { type: 'number', multipleOf: 2 },
        list: { type: 'array', uniqueItems: true, items: { type: 'string', pattern: '(?=a)b' } },
        when: { type: 'string', format: 'iso-week' },
      },
      not: { type: 'null' },
    };
    const { problems, enforceable } = checkSchema(schema, false);
    expect(problems).toEqual([
      "'multipleOf' at #/properties/n",
      "'uniqueItems' at #/properties/list",
      "'pattern' at #/properties/list/items uses lookaround or a back-reference",
      expect.stringContaining("'format: iso-week' at #/properties/when"),
      "'not' at #",
    ]);
    expect(enforceable).toEqual({
      type: 'object',
      properties: {
        n: { type: 'number' },
        list: { type: 'array', items: { type: 'string' } },
        when: { type: 'string' },
      },
    });
  });

  it("applies OpenAI's strict rules: additionalProperties false and every property required", () => {
    const { problems } = checkSchema(
      { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, required: ['a'] },
      true,
    );
    expect(problems).toEqual([
      "#: 'additionalProperties' must be false in strict mode",
      "#: 'required' must list every property in strict mode (missing b)",
    ]);
  });

  it('finds problems under $defs, anyOf and prefixItems, and refuses a non-schema', () => {
    const { problems } = checkSchema(
      { $defs: { x: { allOf: [] } }, anyOf: [{ type: 'string', contentEncoding: 'base64' }], prefixItems: [3] },
      false,
    );
    expect(problems).toEqual([
      "'allOf' at #/$defs/x",
      "'contentEncoding' at #/anyOf/0",
      '#/prefixItems/0 is not a schema (an object or a boolean)',
    ]);
  });

  it('names what XGrammar would fail on (and lose some of its WASM stack): regex escapes, unknown types, unresolved $refs, crossed bounds', () => {
    const { problems, enforceable } = checkSchema(
      {
        type: 'object',
        $defs: { word: { type: 'string', pattern: '\\bword\\b' } },
        properties: {
          a: { $ref: '#/$defs/word' },
          b: { $ref: '#/$defs/missing' },
          c: { type: ['string', 'text'] },
          d: { type: 'integer', minimum: 5, maximum: 1 },
          e: { type: 'string', minLength: 3, maxLength: 8, pattern: '\\p{L}+' },
          f: { type: 'array', minItems: 4, maxItems: 2 },
        },
      },
      false,
    );
    expect(problems).toEqual([
      "'pattern' at #/$defs/word uses a word boundary or a Unicode property escape",
      "'$ref: #/$defs/missing' at #/properties/b (only references inside this schema resolve)",
      '\'type: ["string","text"]\' (types: string, number, integer, boolean, object, array, null) at #/properties/c',
      "'minimum' (5) is greater than 'maximum' (1) at #/properties/d",
      "'pattern' at #/properties/e uses a word boundary or a Unicode property escape",
      "'minItems' (4) is greater than 'maxItems' (2) at #/properties/f",
    ]);
    expect(enforceable).toEqual({
      type: 'object',
      $defs: { word: { type: 'string' } },
      properties: {
        a: { $ref: '#/$defs/word' },
        b: {},
        c: {},
        d: { type: 'integer' },
        e: { type: 'string', minLength: 3, maxLength: 8 },
        f: { type: 'array' },
      },
    });
  });
});
