import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { Sampler } from '../../../../src/models/llm/sampler';
import { closingStage, Grammars } from '../../../../src/text/grammar/constraint';
import type { GrammarRequest } from '../../../../src/text/grammar/request';
import { grammarVocabulary } from '../../../../src/text/grammar/vocabulary';
import { HERMES_SYNTAX } from '../../../../src/text/tool-calls';
import { SHARED_DIR } from '../../../support/shared';
import { loadXGrammarInNode } from '../../../support/xgrammar-node';
import { llamaTokenizer } from '../support';

const SIZE = 32000;
const EOS = 2;
const tokenizerJson = JSON.parse(
  readFileSync(`${SHARED_DIR}fixtures/tiny-random-llama-fp16-genai/tokenizer.json`, 'utf8'),
) as Record<string, unknown>;
const grammars = new Grammars((size) => grammarVocabulary(tokenizerJson, size), [EOS], loadXGrammarInNode);
const tokenizer = llamaTokenizer();

/** Random logits (a stand-in for a random-weights model), picked greedily under the grammar like generate() does. */
async function run(request: GrammarRequest, seed: number, budget: number) {
  const constraint = await grammars.open(request, SIZE);
  const sampler = new Sampler({ temperature: 0, top_p: 1, presence_penalty: 0, frequency_penalty: 0, seed });
  let state = seed;
  const random = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 8;
  const ids: number[] = [];
  let ended = false;
  for (let step = 0; step < budget; step++) {
    const logits = Float32Array.from({ length: SIZE }, random);
    await constraint.mask(logits, closingStage(budget - step, budget));
    const token = sampler.next(logits);
    constraint.accept(token);
    if (token === EOS) {
      ended = true;
      break;
    }
    ids.push(token);
  }
  constraint.dispose();
  return { text: tokenizer.decode(ids), ended };
}

/** The text with every string literal emptied: what is left has no whitespace runs. */
const outsideStrings = (text: string) => text.replace(/"(?:[^"\\]|\\.)*"/g, '""');

const person = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    age: { type: 'integer', minimum: 0 },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
  },
  required: ['name', 'age', 'tags'],
  additionalProperties: false,
};

describe('Grammars (XGrammar over the upstream Llama vocabulary)', () => {
  it('makes random logits write schema-valid JSON without whitespace runs that ends within the budget, for several seeds', async () => {
    const validate = new Ajv().compile(person);
    for (const seed of [1, 2, 3]) {
      const { text, ended } = await run({ kind: 'json', json: { schema: person, strict: true } }, seed, 200);
      expect(ended).toBe(true);
      expect(validate(JSON.parse(text)), text).toBe(true);
      expect(outsideStrings(text)).not.toMatch(/\s\s/);
    }
  });

  it('json_object: any compact JSON object', async () => {
    for (const seed of [6, 7, 8]) {
      const { text, ended } = await run({ kind: 'json', json: { strict: false } }, seed, 60);
      expect(ended).toBe(true);
      const value: unknown = JSON.parse(text);
      expect(typeof value === 'object' && value !== null && !Array.isArray(value)).toBe(true);
    }
  });

  it('required tool calls: one or more Hermes calls whose arguments match the tool, then the end', async () => {
    const tool = { name: 'get_weather', parameters: person, strict: true };
    const validate = new Ajv().compile(person);
    for (const [seed, parallel] of [
      [11, false],
      [12, true],
    ] as const) {
      const { text, ended } = await run(
        { kind: 'tools', tools: [tool], syntax: HERMES_SYNTAX, required: true, parallel },
        seed,
        300,
      );
      expect(ended).toBe(true);
      const calls = [...text.matchAll(/<tool_call>(.*?)<\/tool_call>/gs)].map((m) => JSON.parse(m[1]!));
      expect(calls.length).toBeGreaterThan(0);
      if (!parallel) expect(calls).toHaveLength(1);
      for (const call of calls) {
        expect(call.name).toBe('get_weather');
        expect(validate(call.arguments)).toBe(true);
      }
    }
  });
});
