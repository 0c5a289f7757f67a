/**
 * Writes the data bench models before the bench page opens: multilingual-e5-small's layer sizes with
 * 12 layers (ingest and queries, as the memory bench; fp32 and q8) and with 1 layer (fills the 10,000-chunk search
 * store quickly; same width), and the chat bench model for time to first token. Their served URLs
 * go to test/.fixtures/bench-data.json.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureEncoderFixture } from '../../test/fixtures/encoder/fixture-dir';
import { e5SmallShape } from '../../test/fixtures/encoder/spec';
import { ensureDecoderFixture, fixturesRoot } from '../../test/fixtures/llm/fixture-dir';
import { qwen25HalfBillionShape } from '../../test/fixtures/llm/spec';

const encoder = await ensureEncoderFixture('bench-e5-small-shape', { ...e5SmallShape(12), quantized: true });
const fill = await ensureEncoderFixture('bench-e5-small-shape-1l', e5SmallShape(1));
const chat = await ensureDecoderFixture('bench-qwen2.5-0.5b-2l', { ...qwen25HalfBillionShape(2), dtypes: ['fp32'] });
await writeFile(
  join(fixturesRoot, 'bench-data.json'),
  JSON.stringify({ encoder: encoder.url, fill: fill.url, chat: chat.url }),
);
console.log(`data bench models: ${encoder.dir}, ${fill.dir}, ${chat.dir}`);
