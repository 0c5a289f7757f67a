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
 * - the small chat tier (Qwen2.5-0.5B-Instruct: code-v1's shapes without the FIM tokens), q8, 24 layers;
 * - speech-stt-v1 (whisper-base's sizes) and its small and large tiers' Whisper tiny and small, q8 as
 *   onnx-community's *_quantized.onnx files;
 * - speech-stt-v1's IndicConformer int8 (the medium tier's default for the 22 scheduled languages):
 *   IndicConformer 600M's shapes (d_model 1024, 24 layers, FF 4096, vocab 5633) at the real depth,
 *   int8 MatMuls as `vaani pull --indic --int8` writes them (dynamic quantisation), CTC head only;
 * - Shruti (the small tier's per-language model): its real widths in sherpa-onnx's Moonshine layout,
 *   4-bit as Shruti-ONNX's export (int4 blocks of 32, DequantizeLinear before each MatMul and Gather);
 * - the Rasa voices (vits-rasa-13): sherpa-onnx's VITS layout, a decoder sized to its 150 MB model.onnx;
 * - Kokoro-82M (the Hindi neural voices): its widths as dense q8 layers, ≈ 90 MB (test/fixtures/kokoro);
 * - Piper te_IN-padmavathi-medium: Piper's layout, a decoder sized to its 63.5 MB .onnx;
 * - MMS-TTS Hindi (Xenova/mms-tts-hin): transformers.js' VITS layout, dense q8 layers, ≈ 38 MB.
 * VAANI_FIT_MEMORY=indic,shruti,rasa (keys of the pointer: chat, chat-small, code, embed, whisper,
 * whisper-tiny, whisper-small, indic, shruti, rasa, kokoro, piper, mms) writes only those. The URLs go to
 * test/.fixtures/bench-fit-memory.json; the scenario measures the keys it finds there.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ensureEncoderFixture } from '../../test/fixtures/encoder/fixture-dir';
import { e5SmallShape } from '../../test/fixtures/encoder/spec';
import { ensureDecoderFixture, fixturesRoot } from '../../test/fixtures/llm/fixture-dir';
import { qwen25HalfBillionShape, qwen3HalfBillionShape } from '../../test/fixtures/llm/spec';
import { REAL_DIMS } from '../../test/fixtures/indic-conformer/dims';
import { FIXTURE_ROOT as INDIC_ROOT } from '../../test/fixtures/indic-conformer/ensure';
import { indicConformerFiles } from '../../test/fixtures/indic-conformer/files';
import { BENCH_DIMS_4BIT, writeMoonshineFixture } from '../../test/fixtures/moonshine/files';
import { KOKORO_VOCAB, styleRows } from '../../test/browser/support/tts-fixtures';
import { kokoroBenchGraph, mmsBenchGraph } from '../../test/fixtures/kokoro/graph';
import { PIPER_VOICE_FILE, piperConfig, piperGraph, sherpaGraph, tokensTxt } from '../../test/fixtures/tts-vits/files';
import { BASE_DIMS, SMALL_DIMS, TINY_DIMS } from '../../test/fixtures/whisper/dims';
import { FIXTURE_ROOT } from '../../test/fixtures/whisper/ensure';
import { writeWhisperFixture } from '../../test/fixtures/whisper/write';

const only = process.env.VAANI_FIT_MEMORY?.split(',');
const wanted = (key: string) => !only || only.includes(key);
const pointer: Record<string, string> = {};
const started = performance.now();
if (wanted('chat'))
  pointer.chat = (
    await ensureDecoderFixture('bench-qwen3-0.6b-28l', { ...qwen3HalfBillionShape(28), dtypes: ['q8'] })
  ).url;
if (wanted('code'))
  pointer.code = (
    await ensureDecoderFixture('bench-qwen2.5-coder-0.5b-24l', {
      ...qwen25HalfBillionShape(24),
      dtypes: ['q8'],
      fim: true,
    })
  ).url;
if (wanted('chat-small'))
  pointer['chat-small'] = (
    await ensureDecoderFixture('bench-qwen2.5-0.5b-instruct-24l', { ...qwen25HalfBillionShape(24), dtypes: ['q8'] })
  ).url;
if (wanted('embed'))
  pointer.embed = (
    await ensureEncoderFixture('bench-e5-small-full-vocab', {
      ...e5SmallShape(12),
      vocabSize: 250_002,
      quantized: true,
    })
  ).url;
for (const [key, name, dims] of [
  ['whisper', 'base', BASE_DIMS],
  ['whisper-tiny', 'tiny', TINY_DIMS],
  ['whisper-small', 'small', SMALL_DIMS],
] as const) {
  if (!wanted(key)) continue;
  const whisperDir = join(FIXTURE_ROOT, `bench-${name}-q8`);
  if (!existsSync(join(whisperDir, 'onnx/decoder_model_merged_quantized.onnx')))
    await writeWhisperFixture(whisperDir, dims, 1, true);
  pointer[key] = `/test/.fixtures/whisper/bench-${name}-q8/`;
}
if (wanted('indic')) {
  // The same files bench/prepare/stt-compact.ts writes (one copy on disk).
  const dir = join(INDIC_ROOT, 'bench-real-int8');
  if (!existsSync(join(dir, 'assets/ctc_decoder.onnx')))
    for (const [path, bytes] of indicConformerFiles(REAL_DIMS, 1, false)) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), bytes);
    }
  pointer.indic = '/test/.fixtures/indic-conformer/bench-real-int8/';
}
if (wanted('shruti')) pointer.shruti = writeMoonshineFixture(process.cwd(), 'bench-real-q4', BENCH_DIMS_4BIT).url;
if (wanted('rasa')) {
  // 10 dense layers 2,048 wide: 151 MB of fp32 weights, as the Rasa export's 150 MB model.onnx.
  const dir = join(process.cwd(), 'test/.fixtures/tts-vits/sherpa-fit-memory');
  if (!existsSync(join(dir, 'tokens.txt'))) {
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'model.onnx'), sherpaGraph({ width: 2048, layers: 10 }));
    await writeFile(join(dir, 'tokens.txt'), tokensTxt());
  }
  pointer.rasa = '/test/.fixtures/tts-vits/sherpa-fit-memory/';
}
if (wanted('kokoro')) {
  // Kokoro-82M's widths as dense q8 layers (test/fixtures/kokoro/graph.ts), its 178-id vocabulary.
  const dir = join(process.cwd(), 'test/.fixtures/tts/kokoro-fit-memory');
  if (!existsSync(join(dir, 'voices/hf_alpha.bin'))) {
    await mkdir(join(dir, 'onnx'), { recursive: true });
    await mkdir(join(dir, 'voices'), { recursive: true });
    await writeFile(join(dir, 'onnx/model_quantized.onnx'), kokoroBenchGraph(178));
    await writeFile(join(dir, 'tokenizer.json'), JSON.stringify({ model: { type: 'WordLevel', vocab: KOKORO_VOCAB } }));
    await writeFile(join(dir, 'voices/hf_alpha.bin'), new Uint8Array(styleRows().buffer));
  }
  pointer.kokoro = '/test/.fixtures/tts/kokoro-fit-memory/';
}
if (wanted('piper')) {
  // Piper te_IN-padmavathi-medium: 4 dense layers 2,240 wide, 62.6 MB of fp32 weights (its .onnx is 63.5 MB).
  const dir = join(process.cwd(), 'test/.fixtures/tts-vits/piper-fit-memory');
  if (!existsSync(join(dir, `${PIPER_VOICE_FILE}.json`))) {
    await mkdir(dirname(join(dir, PIPER_VOICE_FILE)), { recursive: true });
    await writeFile(join(dir, PIPER_VOICE_FILE), piperGraph({ width: 2240, layers: 4 }));
    await writeFile(join(dir, `${PIPER_VOICE_FILE}.json`), JSON.stringify(piperConfig(), null, 2));
  }
  pointer.piper = '/test/.fixtures/tts-vits/piper-fit-memory/';
}
if (wanted('mms')) {
  // Xenova/mms-tts-hin's layout, q8 (test/fixtures/kokoro/graph.ts), a Devanagari character vocabulary.
  const dir = join(process.cwd(), 'test/.fixtures/tts/mms-fit-memory');
  if (!existsSync(join(dir, 'config.json'))) {
    const vocab: Record<string, number> = { _: 0, ' ': 1 };
    for (let code = 0x900; code < 0x980; code++) vocab[String.fromCodePoint(code)] = Object.keys(vocab).length;
    await mkdir(join(dir, 'onnx'), { recursive: true });
    await writeFile(join(dir, 'onnx/model_quantized.onnx'), mmsBenchGraph(Object.keys(vocab).length));
    await writeFile(join(dir, 'vocab.json'), JSON.stringify(vocab));
    await writeFile(
      join(dir, 'tokenizer_config.json'),
      JSON.stringify({ add_blank: true, normalize: true, pad_token: '_', is_uroman: false }),
    );
    await writeFile(join(dir, 'config.json'), JSON.stringify({ sampling_rate: 16000 }));
  }
  pointer.mms = '/test/.fixtures/tts/mms-fit-memory/';
}
await writeFile(join(fixturesRoot, 'bench-fit-memory.json'), JSON.stringify(pointer));
console.log(`fit-memory bench models ready (${((performance.now() - started) / 1000).toFixed(0)} s)`);
