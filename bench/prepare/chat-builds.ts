/**
 * Writes the build bench's model before the bench page opens: Qwen2.5-0.5B's shapes at full depth
 * (24 layers, random weights) as onnx/model_quantized.onnx (q8, the best WASM dtype), the same file
 * the chat-scaling and chat-wllama benches time. Its served URL goes to test/.fixtures/bench-chat-builds.json.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureDecoderFixture, fixturesRoot } from '../../test/fixtures/llm/fixture-dir';
import { qwen25HalfBillionShape } from '../../test/fixtures/llm/spec';

const started = performance.now();
const onnx = await ensureDecoderFixture('bench-qwen2.5-0.5b-24l', { ...qwen25HalfBillionShape(24), dtypes: ['q8'] });
// CHAT_BUILDS_THREADS=2 narrows a run to one thread count (default: 2 and 1).
const threads = process.env.CHAT_BUILDS_THREADS?.split(',').map(Number);
// CHAT_BUILDS_RESIDENT=1 keeps every build loaded at once, taking turns (a page with several engines).
const resident = process.env.CHAT_BUILDS_RESIDENT === '1';
await writeFile(join(fixturesRoot, 'bench-chat-builds.json'), JSON.stringify({ url: onnx.url, threads, resident }));
const seconds = ((performance.now() - started) / 1000).toFixed(0);
console.log(`chat builds bench model at ${onnx.dir} (${seconds} s)`);
