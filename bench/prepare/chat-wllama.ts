/**
 * Writes the wllama bake-off's model before the bench page opens: Qwen2.5-0.5B's shapes at full
 * depth (24 layers, random weights) as onnx/model_quantized.onnx (q8, Vaani's best WASM dtype) and
 * the very same weights as model-q8_0.gguf (llama.cpp's Q8_0), once, under test/.fixtures/. The
 * served URLs go to test/.fixtures/bench-chat-wllama.json.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureDecoderFixture, ensureGgufFixture, fixturesRoot } from '../../test/fixtures/llm/fixture-dir';
import { qwen25HalfBillionShape } from '../../test/fixtures/llm/spec';

const started = performance.now();
const options = { ...qwen25HalfBillionShape(24), dtypes: ['q8' as const] };
const onnx = await ensureDecoderFixture('bench-qwen2.5-0.5b-24l', options);
const gguf = await ensureGgufFixture('bench-qwen2.5-0.5b-24l', options, ['Q8_0']);
// CHAT_WLLAMA_THREADS=2 narrows a run to one thread count (default: 2 and 1).
const threads = process.env.CHAT_WLLAMA_THREADS?.split(',').map(Number);
await writeFile(
  join(fixturesRoot, 'bench-chat-wllama.json'),
  JSON.stringify({ url: onnx.url, gguf: `${gguf.url}${gguf.files.Q8_0}`, threads }),
);
const seconds = ((performance.now() - started) / 1000).toFixed(0);
console.log(`wllama bench models at ${onnx.dir} and ${gguf.dir} (${seconds} s)`);
