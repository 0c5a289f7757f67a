/**
 * Writes the embeddings bench model before the bench page opens: multilingual-e5-small's layer
 * sizes (hidden 384, 12 layers, 12 heads, intermediate 1536) with a 1,000-entry Unigram vocabulary,
 * random weights, fp32 (onnx/model.onnx) and q8 (onnx/model_quantized.onnx, onnxruntime's dynamic
 * quantisation as Xenova's export: what embed-v1 runs on WASM). Its served URL goes to
 * test/.fixtures/bench-memory.json.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureEncoderFixture } from '../../test/fixtures/encoder/fixture-dir';
import { e5SmallShape } from '../../test/fixtures/encoder/spec';
import { fixturesRoot } from '../../test/fixtures/llm/fixture-dir';

const fixture = await ensureEncoderFixture('bench-e5-small-shape', { ...e5SmallShape(12), quantized: true });
await writeFile(join(fixturesRoot, 'bench-memory.json'), JSON.stringify({ url: fixture.url }));
console.log(`embeddings bench model at ${fixture.dir}, served at ${fixture.url}`);
