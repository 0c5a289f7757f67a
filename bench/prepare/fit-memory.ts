/**
 * Writes the fit-memory bench models before the bench page opens, random weights in the real export
 * layouts and layer sizes of the defaults `ai.plan` plans on WASM:
 * - chat-v2 / agent-v1 (Qwen3-0.6B: hidden 1024, 16 / 8 heads, head_dim 128, intermediate 3072,
 *   vocab 151936, tied; the generator's llama graph, so without Qwen3's q/k norms, 256 floats a layer)
 *   at its 28 layers, and code-v1 / code-v1-base (Qwen2.5-Coder-0.5B: Qwen2.5-0.5B's sizes, 24
 *   layers, the FIM tokens), q8 (model_quantized.onnx + its external data) — at the real depth: the
 *   WASM heap grows in steps (up to 96 MB at a time), so two shallow depths do not extrapolate;
 * - embed-v1 (multilingual-e5-small: 12 layers, hidden 384, its 250,002-row vocabulary), q8 as
 *   Xenova's model_quantized.onnx (the tokenizer's extra rows are pieces no text has);
 * - speech-stt-v1 (whisper-base's sizes), q8 as onnx-community's *_quantized.onnx files.
 * The URLs go to test/.fixtures/bench-fit-memory.json.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureEncoderFixture } from '../../test/fixtures/encoder/fixture-dir';
import { e5SmallShape } from '../../test/fixtures/encoder/spec';
import { ensureDecoderFixture, fixturesRoot } from '../../test/fixtures/llm/fixture-dir';
import { qwen25HalfBillionShape, type DecoderFixtureOptions } from '../../test/fixtures/llm/spec';
import { BASE_DIMS } from '../../test/fixtures/whisper/dims';
import { FIXTURE_ROOT } from '../../test/fixtures/whisper/ensure';
import { writeWhisperFixture } from '../../test/fixtures/whisper/write';

const qwen3HalfBillionShape = (layers: number): DecoderFixtureOptions => ({
  ...qwen25HalfBillionShape(layers),
  architecture: 'llama',
  hiddenSize: 1024,
  numAttentionHeads: 16,
  numKeyValueHeads: 8,
  headDim: 128,
  intermediateSize: 3072,
  maxPositionEmbeddings: 40960,
  seed: 5,
});

const started = performance.now();
const chat = await ensureDecoderFixture('bench-qwen3-0.6b-28l', { ...qwen3HalfBillionShape(28), dtypes: ['q8'] });
const code = await ensureDecoderFixture('bench-qwen2.5-coder-0.5b-24l', {
  ...qwen25HalfBillionShape(24),
  dtypes: ['q8'],
  fim: true,
});
const e5 = await ensureEncoderFixture('bench-e5-small-full-vocab', {
  ...e5SmallShape(12),
  vocabSize: 250_002,
  quantized: true,
});
const whisperDir = join(FIXTURE_ROOT, 'bench-base-q8');
if (!existsSync(join(whisperDir, 'onnx/decoder_model_merged_quantized.onnx')))
  await writeWhisperFixture(whisperDir, BASE_DIMS, 1, true);
await writeFile(
  join(fixturesRoot, 'bench-fit-memory.json'),
  JSON.stringify({
    chat: chat.url,
    code: code.url,
    embed: e5.url,
    whisper: '/test/.fixtures/whisper/bench-base-q8/',
  }),
);
console.log(`fit-memory bench models ready (${((performance.now() - started) / 1000).toFixed(0)} s)`);
