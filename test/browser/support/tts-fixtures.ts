import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import onnxProto, { type onnx } from 'onnx-proto';

/**
 * Tiny neural TTS models with the real models' inputs and outputs, written at test time under
 * test/.fixtures/tts/ (gitignored) in the onnx-community / transformers.js layouts. Their output
 * is computed from the inputs, so tests can check what the runtime fed them:
 * - Kokoro: waveform = (each input id repeated 600 / speed times) × mean(style row), ids all
 *   embedding to 1, so its length tells the token count and speed, its level the style row used.
 * - VITS: waveform = each id (× attention mask) repeated 256 times as id / 100.
 */

const { onnx: proto } = onnxProto;
const FLOAT = proto.TensorProto.DataType.FLOAT;
const INT64 = proto.TensorProto.DataType.INT64;
const A = proto.AttributeProto.AttributeType;

export const KOKORO_SAMPLES_PER_TOKEN = 600;
export const VITS_SAMPLES_PER_TOKEN = 256;
export const STYLE_ROWS = 510;

const value = (name: string, elemType: number, dims: (number | string)[]): onnx.IValueInfoProto => ({
  name,
  type: {
    tensorType: {
      elemType,
      shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) },
    },
  },
});
const floats = (name: string, dims: number[], data: number[]): onnx.ITensorProto => {
  const array = Float32Array.from(data);
  return { name, dims, dataType: FLOAT, rawData: new Uint8Array(array.buffer) };
};
const ints = (name: string, data: number[]): onnx.ITensorProto => ({
  name,
  dims: [data.length],
  dataType: INT64,
  int64Data: data,
});
const node = (
  opType: string,
  input: string[],
  output: string,
  attribute: onnx.IAttributeProto[] = [],
): onnx.INodeProto => ({ opType, input, output: [output], name: output, attribute });

function model(graph: onnx.IGraphProto): Uint8Array {
  return proto.ModelProto.encode({
    irVersion: 8,
    opsetImport: [{ domain: '', version: 13 }],
    producerName: 'vaani-tests',
    graph,
  }).finish();
}

/** The ids → [1, 1, n] floats → nearest-neighbour upsampled; shared by both models. */
const upsample = (embedded: string, scales: string): onnx.INodeProto[] => [
  node('Transpose', [embedded], 'row', [{ name: 'perm', type: A.INTS, ints: [0, 2, 1] }]),
  node('Resize', ['row', '', scales], 'upsampled', [
    { name: 'mode', type: A.STRING, s: new TextEncoder().encode('nearest') },
  ]),
];

export function kokoroModel(vocabSize: number): Uint8Array {
  return model({
    name: 'tiny-kokoro',
    input: [value('input_ids', INT64, [1, 'tokens']), value('style', FLOAT, [1, 256]), value('speed', FLOAT, [1])],
    output: [value('waveform', FLOAT, ['samples'])],
    initializer: [
      floats('embedding', [vocabSize, 1], new Array(vocabSize).fill(1)),
      floats('per_token', [1], [KOKORO_SAMPLES_PER_TOKEN]),
      floats('unit_scales', [2], [1, 1]),
      ints('flat', [-1]),
    ],
    node: [
      node('Gather', ['embedding', 'input_ids'], 'embedded'),
      node('Div', ['per_token', 'speed'], 'stretch'),
      node('Concat', ['unit_scales', 'stretch'], 'scales', [{ name: 'axis', type: A.INT, i: 0 }]),
      ...upsample('embedded', 'scales'),
      node('ReduceMean', ['style'], 'gain', [{ name: 'keepdims', type: A.INT, i: 0 }]),
      node('Mul', ['upsampled', 'gain'], 'scaled'),
      node('Reshape', ['scaled', 'flat'], 'waveform'),
    ],
  });
}

export function vitsModel(vocabSize: number): Uint8Array {
  return model({
    name: 'tiny-vits',
    input: [value('input_ids', INT64, [1, 'tokens']), value('attention_mask', INT64, [1, 'tokens'])],
    output: [value('waveform', FLOAT, [1, 'samples'])],
    initializer: [
      floats(
        'embedding',
        [vocabSize, 1],
        Array.from({ length: vocabSize }, (_, id) => id / 100),
      ),
      floats('scales', [3], [1, 1, VITS_SAMPLES_PER_TOKEN]),
      ints('mask_axis', [2]),
      ints('row_shape', [1, -1]),
    ],
    node: [
      node('Gather', ['embedding', 'input_ids'], 'ids_embedded'),
      node('Cast', ['attention_mask'], 'mask', [{ name: 'to', type: A.INT, i: FLOAT }]),
      node('Unsqueeze', ['mask', 'mask_axis'], 'mask_column'),
      node('Mul', ['ids_embedded', 'mask_column'], 'embedded'),
      ...upsample('embedded', 'scales'),
      node('Reshape', ['upsampled', 'row_shape'], 'waveform'),
    ],
  });
}

/** Kokoro's vocabulary: pad '$' = 0, space, punctuation and IPA symbols eSpeak writes for Hindi. */
export const KOKORO_VOCAB: Record<string, number> = Object.fromEntries(
  ['$', ' ', ...',.?!', ...'aeiouəʌɛɔɪʊnmpbtdkgɡsʃhlrɾjvʋcɟʈɖɳŋɲʂːˈˌ̃ʰ'].map((symbol, id) => [symbol, id]),
);

/** A VITS character vocabulary: blank '_' = 0, then a–z and space. */
export const VITS_VOCAB: Record<string, number> = Object.fromEntries(
  ['_', ...'abcdefghijklmnopqrstuvwxyz', ' '].map((c, id) => [c, id]),
);

/** Style file: row r (for r phonemes) is filled with (r + 1) / 1000. */
export const styleRows = () =>
  Float32Array.from({ length: STYLE_ROWS * 256 }, (_, i) => (Math.floor(i / 256) + 1) / 1000);

function write(root: string, files: Record<string, Uint8Array | string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    // Written beside and renamed into place: a page loading the file never reads it half-written.
    const staging = `${join(root, path)}.${process.pid}`;
    writeFileSync(staging, content);
    renameSync(staging, join(root, path));
  }
}

/** Writes the tiny models (and a VITS one needing uroman); returns their base URLs under the test server. */
export function writeTtsFixtures(repoRoot: string): { kokoro: string; vits: string; vitsUroman: string } {
  const style = styleRows();
  write(join(repoRoot, 'test/.fixtures/tts/kokoro'), {
    'onnx/model_quantized.onnx': kokoroModel(Object.keys(KOKORO_VOCAB).length),
    'tokenizer.json': JSON.stringify({ model: { type: 'WordLevel', vocab: KOKORO_VOCAB } }),
    ...Object.fromEntries(
      ['hf_alpha', 'hf_beta', 'hm_omega', 'hm_psi'].map((name) => [`voices/${name}.bin`, new Uint8Array(style.buffer)]),
    ),
  });
  for (const uroman of [false, true]) {
    write(join(repoRoot, `test/.fixtures/tts/vits${uroman ? '-uroman' : ''}`), {
      'onnx/model_quantized.onnx': vitsModel(Object.keys(VITS_VOCAB).length),
      'vocab.json': JSON.stringify(VITS_VOCAB),
      'tokenizer_config.json': JSON.stringify({ add_blank: true, normalize: true, pad_token: '_', is_uroman: uroman }),
      'config.json': JSON.stringify({ sampling_rate: 16000 }),
    });
  }
  return {
    kokoro: '/test/.fixtures/tts/kokoro/',
    vits: '/test/.fixtures/tts/vits/',
    vitsUroman: '/test/.fixtures/tts/vits-uroman/',
  };
}
