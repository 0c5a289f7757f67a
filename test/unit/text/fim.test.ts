import { describe, expect, it } from 'vitest';
import { fimPrompt, fimTokens, rawStopIds } from '../../../src/common/text/fim';
import { TextTokenizer } from '../../../src/common/text/tokenizer';
import { tinyQwen2, tinyQwenCoder } from '../../fixtures/llm/spec';
import { generated, json } from '../fixtures/generated';

const small = { dtypes: ['fp32' as const], numHiddenLayers: 1 };
const coder = { ...tinyQwenCoder, ...small };
const plain = { ...tinyQwen2, ...small };

async function tokenizerOf(options: typeof coder) {
  const sink = await generated(options);
  return new TextTokenizer(json(sink, 'tokenizer.json'), json(sink, 'tokenizer_config.json'));
}

describe('fill-in-the-middle on the Qwen2.5-Coder tokenizer layout', () => {
  it('reads the FIM ids from the tokenizer and assembles the reference format', async () => {
    const tokenizer = await tokenizerOf(coder);
    const fim = fimTokens(tokenizer)!;
    expect(fim).toEqual({
      prefix: tokenizer.id('<|fim_prefix|>'),
      suffix: tokenizer.id('<|fim_suffix|>'),
      middle: tokenizer.id('<|fim_middle|>'),
    });
    const prefix = 'def add(a, b):\n    ';
    const suffix = '\n\nprint(add(1, 2))  # नमस्ते\n';
    const reference = tokenizer.encode(`<|fim_prefix|>${prefix}<|fim_suffix|>${suffix}<|fim_middle|>`);
    expect(fimPrompt(tokenizer, fim, prefix, suffix)).toEqual(reference);
    expect(rawStopIds(tokenizer)).toEqual(
      [
        '<|endoftext|>',
        '<|fim_pad|>',
        '<|file_sep|>',
        '<|repo_name|>',
        '<|fim_prefix|>',
        '<|fim_suffix|>',
        '<|fim_middle|>',
      ].map((token) => tokenizer.id(token)),
    );
  });

  it('a tokenizer without FIM tokens has none', async () => {
    const tokenizer = await tokenizerOf(plain);
    expect(fimTokens(tokenizer)).toBeUndefined();
    expect(rawStopIds(tokenizer)).toEqual([tokenizer.id('<|endoftext|>')]);
  });
});
