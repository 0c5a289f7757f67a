import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { grammarVocabulary } from '../../../../src/common/text/grammar/vocabulary';
import { SHARED_DIR } from '../../../support/shared';

const upstream = () =>
  JSON.parse(readFileSync(`${SHARED_DIR}fixtures/tiny-random-llama-fp16-genai/tokenizer.json`, 'utf8')) as Record<
    string,
    unknown
  >;

describe('grammarVocabulary', () => {
  it("reads the upstream Llama tokenizer as byte fallback with a prepended '▁', specials blanked", () => {
    const vocab = grammarVocabulary(upstream(), 32000);
    expect(vocab.vocabType).toBe('byte_fallback');
    expect(vocab.prependSpace).toBe(true);
    expect(vocab.tokens).toHaveLength(32000);
    expect(vocab.tokens.slice(0, 4)).toEqual(['', '', '', '<0x00>']);
    expect(vocab.tokens.every((token) => typeof token === 'string')).toBe(true);
    expect(vocab.tokens[29871]).toBe('▁');
  });

  it('pads to the logits width and reads a byte-level BPE (ByteLevel decoder) with added tokens', () => {
    const vocab = grammarVocabulary(
      {
        model: { type: 'BPE', vocab: { a: 0, Ġb: 1 } },
        decoder: { type: 'ByteLevel' },
        added_tokens: [
          { id: 2, content: '<|im_end|>', special: true },
          { id: 3, content: '<tool_call>', special: false },
        ],
      },
      6,
    );
    expect(vocab).toEqual({
      tokens: ['a', 'Ġb', '', '<tool_call>', '', ''],
      vocabType: 'byte_level',
      prependSpace: false,
    });
  });

  it('reads a Unigram list and a Metaspace pre-tokenizer', () => {
    const vocab = grammarVocabulary(
      {
        model: {
          type: 'Unigram',
          vocab: [
            ['<unk>', 0],
            ['▁x', -1],
          ],
        },
        pre_tokenizer: { type: 'Sequence', pretokenizers: [{ type: 'Metaspace', prepend_scheme: 'always' }] },
      },
      2,
    );
    expect(vocab).toEqual({ tokens: ['<unk>', '▁x'], vocabType: 'raw', prependSpace: true });
  });
});
