/**
 * Writes the chat bench model before the bench page opens: Qwen2.5-0.5B's layer sizes (hidden 896,
 * 14 query / 2 KV heads, head_dim 64, intermediate 4864, vocab 151936), 2 layers, random weights,
 * fp32, under test/.fixtures/. Its served URL goes to test/.fixtures/bench-chat.json, where
 * bench/scenarios/chat.ts looks for it.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureDecoderFixture, fixturesRoot } from '../../test/fixtures/llm/fixture-dir';
import { qwen25HalfBillionShape } from '../../test/fixtures/llm/spec';

const fixture = await ensureDecoderFixture('bench-qwen2.5-0.5b-2l', { ...qwen25HalfBillionShape(2), dtypes: ['fp32'] });
await writeFile(join(fixturesRoot, 'bench-chat.json'), JSON.stringify({ url: fixture.url }));
console.log(`chat bench model at ${fixture.dir}, served at ${fixture.url}`);
