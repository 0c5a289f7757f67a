/**
 * Writes the logits bench's models before the bench page opens: Qwen2.5-0.5B's shapes at full depth
 * (24 layers, random weights, q8 as onnx/model_quantized.onnx) twice with the same weights: as
 * optimum, Olive and onnxruntime-genai export a decoder (logits at every position, no
 * `num_logits_to_keep`), and with the input (the wllama bench's model). The served URLs go to
 * test/.fixtures/bench-chat-logits.json.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureDecoderFixture, fixturesRoot } from '../../test/fixtures/llm/fixture-dir';
import { qwen25HalfBillionShape } from '../../test/fixtures/llm/spec';

const started = performance.now();
const options = { ...qwen25HalfBillionShape(24), dtypes: ['q8' as const] };
const every = await ensureDecoderFixture('bench-qwen2.5-0.5b-24l', { ...options, numLogitsToKeep: false });
const last = await ensureDecoderFixture('bench-qwen2.5-0.5b-24l', options);
await writeFile(join(fixturesRoot, 'bench-chat-logits.json'), JSON.stringify({ every: every.url, last: last.url }));
const seconds = ((performance.now() - started) / 1000).toFixed(0);
console.log(`logits bench models at ${every.dir} and ${last.dir} (${seconds} s)`);
