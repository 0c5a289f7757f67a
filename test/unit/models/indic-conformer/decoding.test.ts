import onnxProto from 'onnx-proto';
import { describe, expect, it } from 'vitest';
import { ctcGreedy } from '../../../../src/worker/transcription/indic-conformer/ctc';
import { externalDataFiles } from '../../../../src/common/layouts/onnx-external-data';
import { joinText, joinWords } from '../../../../src/worker/transcription/indic-conformer/tokens';
import { IndicVocabulary, VocabularyError } from '../../../../src/worker/transcription/indic-conformer/vocab';

const { onnx } = onnxProto;

// Two languages over a 7-wide head: 'xx' owns outputs 0–2, 'yy' outputs 3–5, the shared blank is 6.
const vocabulary = new IndicVocabulary(
  { xx: ['<unk>', '▁नम', 'स्ते'], yy: ['<unk>', '▁வண', 'க்கம்'] },
  {
    xx: [true, true, true, false, false, false, true],
    yy: [false, false, false, true, true, true, true],
  },
);

/** Log-probabilities [frames, 7] whose best output per frame is `path` (other outputs far below). */
function head(path: number[]): Float32Array {
  const out = new Float32Array(path.length * 7).fill(-20);
  path.forEach((column, t) => (out[t * 7 + column] = -0.1));
  return out;
}

describe('CTC greedy decoding with a language mask', () => {
  it('collapses repeats, drops blanks and keeps a token repeated across a blank', () => {
    const { tokens } = ctcGreedy(head([1, 1, 6, 2, 2, 6, 6, 2, 1]), 9, 7, vocabulary.get('xx')!);
    expect(tokens.map((t) => [t.id, t.start, t.end])).toEqual([
      [1, 0, 2],
      [2, 3, 5],
      [2, 7, 8],
      [1, 8, 9],
    ]);
    expect(joinText(tokens)).toBe('नमस्तेस्ते नम');
  });

  it("reads only the language's columns: another language's stronger outputs are ignored", () => {
    const logprobs = head([4, 4, 6, 5]);
    for (const t of [0, 1, 3]) logprobs[t * 7 + 1] = -2; // xx's '▁नम' is second best
    expect(joinText(ctcGreedy(logprobs, 4, 7, vocabulary.get('yy')!).tokens)).toBe('வணக்கம்');
    expect(joinText(ctcGreedy(logprobs, 4, 7, vocabulary.get('xx')!).tokens)).toBe('नम नम');
  });

  it('stops at the valid frames and drops <unk>', () => {
    const { tokens } = ctcGreedy(head([0, 1, 6, 2, 2]), 3, 7, vocabulary.get('xx')!);
    expect(tokens.map((t) => t.piece)).toEqual(['▁नम']);
  });

  it('joins pieces into words with times from frame positions', () => {
    const { tokens } = ctcGreedy(head([6, 1, 6, 2, 6, 6, 1, 1, 6]), 9, 7, vocabulary.get('xx')!);
    expect(joinWords(tokens, 0.04, 10)).toEqual([
      { word: 'नमस्ते', start: 10.04, end: expect.closeTo(10.16, 6) },
      { word: 'नम', start: expect.closeTo(10.24, 6), end: expect.closeTo(10.32, 6) },
    ]);
  });

  it('rejects masks and vocabularies of the wrong shape', () => {
    expect(() => new IndicVocabulary({ xx: ['a'] }, { xx: 'no' })).toThrow(VocabularyError);
    expect(() => new IndicVocabulary([], {})).toThrow(VocabularyError);
    expect(() => new IndicVocabulary({ xx: ['a', 'b'] }, { xx: [true, true] }, 5)).toThrow(/blank 5/);
  });
});

describe('externalDataFiles', () => {
  it('lists the locations of external initializers and Constant attributes, once each', () => {
    const external = (name: string, location: string) => ({
      name,
      dims: [4],
      dataType: 1,
      dataLocation: 1,
      externalData: [
        { key: 'location', value: location },
        { key: 'offset', value: '0' },
      ],
    });
    const model = onnx.ModelProto.encode({
      irVersion: 8,
      opsetImport: [{ domain: '', version: 17 }],
      graph: {
        name: 'g',
        initializer: [
          external('layers.0.weight', 'layers.0.weight'),
          external('onnx__MatMul_1', 'onnx__MatMul_1'),
          { name: 'inline', dims: [1], dataType: 1, rawData: new Uint8Array(4) },
        ],
        node: [
          {
            opType: 'Constant',
            output: ['c'],
            attribute: [
              { name: 'value', type: 4, t: external('Constant_1970_attr__value', 'Constant_1970_attr__value') },
            ],
          },
          { opType: 'Identity', input: ['c'], output: ['d'], attribute: [] },
        ],
        input: [],
        output: [],
      },
    }).finish();
    expect(externalDataFiles(model).sort()).toEqual(['Constant_1970_attr__value', 'layers.0.weight', 'onnx__MatMul_1']);
  });

  it('finds nothing in a self-contained graph', () => {
    const model = onnx.ModelProto.encode({
      irVersion: 8,
      graph: { name: 'g', initializer: [{ name: 'w', dims: [1], dataType: 1, rawData: new Uint8Array(4) }] },
    }).finish();
    expect(externalDataFiles(model)).toEqual([]);
  });
});
