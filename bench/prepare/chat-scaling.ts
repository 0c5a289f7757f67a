/**
 * Writes the representative chat bench model before the bench page opens: Qwen2.5-0.5B's real
 * shapes (24 layers, hidden 896, 14 query / 2 KV heads, head_dim 64, intermediate 4864, vocab
 * 151936, tied embeddings), random weights, in fp32 (model.onnx, ~2 GB), q4 (model_q4.onnx:
 * MatMulNBits, blocks of 32) and q8 (model_quantized.onnx: dynamic uint8), once, under
 * test/.fixtures/. Its served URL goes to test/.fixtures/bench-chat-scaling.json.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureDecoderFixture, fixturesRoot } from '../../test/fixtures/llm/fixture-dir';
import { qwen25HalfBillionShape } from '../../test/fixtures/llm/spec';

const started = performance.now();
const fixture = await ensureDecoderFixture('bench-qwen2.5-0.5b-24l', {
  ...qwen25HalfBillionShape(24),
  dtypes: ['fp32', 'q4', 'q8'],
});
// CHAT_SCALING_DTYPES=q4 CHAT_SCALING_CONTEXTS=128,1024 narrow a run (default: q4, q8, fp32 at 128, 1024, 2048, 4096);
// CHAT_SCALING_CONTENDERS=vaani,bare leaves transformers.js out and CHAT_SCALING_TOKENS=9 shortens answers (quick iterations).
const list = (value: string | undefined) => value?.split(',').map((item) => item.trim());
const dtypes = list(process.env.CHAT_SCALING_DTYPES);
const contexts = list(process.env.CHAT_SCALING_CONTEXTS)?.map(Number);
const contenders = list(process.env.CHAT_SCALING_CONTENDERS);
const tokens = process.env.CHAT_SCALING_TOKENS ? Number(process.env.CHAT_SCALING_TOKENS) : undefined;
const threads = process.env.CHAT_SCALING_THREADS ? Number(process.env.CHAT_SCALING_THREADS) : undefined;
await writeFile(
  join(fixturesRoot, 'bench-chat-scaling.json'),
  JSON.stringify({ url: fixture.url, dtypes, contexts, contenders, tokens, threads }),
);
const seconds = ((performance.now() - started) / 1000).toFixed(0);
console.log(`chat scaling bench model at ${fixture.dir}, served at ${fixture.url} (${seconds} s)`);
