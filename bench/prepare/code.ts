/**
 * Writes the code and agents bench models before the bench page opens: a Qwen2.5-Coder-0.5B-shaped
 * model (Qwen2.5-0.5B's layer sizes, 2 layers, random weights, fp32, the FIM tokens) for fill-in-the-
 * middle time to first token, and the tiny scripted tool caller for the agent loop's overhead. Their
 * URLs go to test/.fixtures/bench-code.json.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureDecoderFixture, fixturesRoot } from '../../test/fixtures/llm/fixture-dir';
import { qwen25HalfBillionShape, tinyLlama } from '../../test/fixtures/llm/spec';

const CALL = '{"name": "get_weather", "arguments": {"city": "Pune", "unit": "celsius"}}';
const coder = await ensureDecoderFixture('bench-qwen2.5-coder-0.5b-2l', {
  ...qwen25HalfBillionShape(2),
  dtypes: ['fp32'],
  fim: true,
});
const caller = await ensureDecoderFixture('tiny-tool-caller', {
  ...tinyLlama,
  dtypes: ['fp32'],
  seed: 7,
  scripted: { chain: ['Ċ', '<tool_call>', CALL, '</tool_call>', '<|im_end|>'], addedTokens: [CALL] },
});
await writeFile(join(fixturesRoot, 'bench-code.json'), JSON.stringify({ coder: coder.url, caller: caller.url }));
console.log(`code bench models at ${coder.dir} and ${caller.dir}`);
