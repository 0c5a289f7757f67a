import { describe, expect, it } from 'vitest';
import { parseTokens, sherpaCharacterIds, sherpaVitsMeta } from '../../../src/worker/speech/sherpa-tokens';
import { onnxMetadata } from '../../../src/worker/speech/onnx-metadata';
import { RASA_METADATA, sherpaGraph, tokensTxt, SHERPA_SYMBOLS } from '../../fixtures/tts-vits/files';
import { vitsScales } from '../../../src/worker/speech/vits-controls';

const tokens = parseTokens('_ 0\n 1\na 2\nb 3\n. 4\n? 5\nக 6\n');
const meta = (props: Record<string, string>) => sherpaVitsMeta({ sample_rate: '22050', ...props });

describe("sherpa-onnx's character front end", () => {
  it('reads tokens.txt, the id last and a bare id as the space', () => {
    expect([...tokens]).toEqual([
      ['_', 0],
      [' ', 1],
      ['a', 2],
      ['b', 3],
      ['.', 4],
      ['?', 5],
      ['க', 6],
    ]);
    expect(parseTokens(tokensTxt()).size).toBe(SHERPA_SYMBOLS.length);
    expect(() => parseTokens('a b\n')).toThrow(/without an id/);
  });

  it.each([
    // add_blank: the blank first and after every token; unknown characters skipped; ASCII lower-cased.
    ['Ab', { add_blank: '1' }, [[0, 2, 0, 3, 0]]],
    ['a☃b', { add_blank: '1' }, [[0, 2, 0, 3, 0]]],
    // A sentence ends after . : ? ! (the mark is kept); an empty one is dropped.
    [
      'a. b?',
      { add_blank: '1' },
      [
        [0, 2, 0, 4, 0],
        [0, 1, 0, 3, 0, 5, 0],
      ],
    ],
    ['a.', { add_blank: '1' }, [[0, 2, 0, 4, 0]]],
    // Without blanks; with BOS/EOS.
    ['ab', {}, [[2, 3]]],
    ['ab', { add_blank: '1', use_eos_bos: '1', bos_id: '7', eos_id: '8' }, [[7, 0, 2, 0, 3, 0, 8]]],
    // Non-ASCII letters are kept as they are.
    ['கa', { add_blank: '1' }, [[0, 6, 0, 2, 0]]],
  ])('%j with %j → %j', (text, props, expected) => {
    expect(sherpaCharacterIds(text, tokens, meta(props))).toEqual(expected);
  });

  it("reads the model's metadata_props from the ONNX bytes", () => {
    const props = onnxMetadata(sherpaGraph());
    expect(props).toEqual(RASA_METADATA);
    expect(sherpaVitsMeta(props)).toMatchObject({
      sampleRate: 22050,
      addBlank: true,
      speakers: 1024,
      frontend: 'characters',
    });
    expect(() => sherpaVitsMeta({})).toThrow(/sample_rate/);
  });
});

describe('speed, stability and style on a VITS voice', () => {
  it('keep the voice own scales at the defaults and move them as documented', () => {
    const own = { noiseScale: 0.5, lengthScale: 1.2, noiseW: 0.6 };
    expect(vitsScales(own, { speed: 1, stability: 0.5, style: 0.35 })).toEqual(own);
    const moved = vitsScales(own, { speed: 2, stability: 1, style: 1 });
    expect(moved.lengthScale).toBeCloseTo(0.6);
    expect(moved.noiseScale).toBe(0);
    expect(moved.noiseW).toBeCloseTo(0.6 * 2 ** 1.3);
    expect(vitsScales({}, { speed: 1, stability: 0.5, style: 0.35 })).toEqual({
      noiseScale: 0.667,
      lengthScale: 1,
      noiseW: 0.8,
    });
  });
});
