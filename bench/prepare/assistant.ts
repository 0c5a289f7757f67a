/**
 * Writes the voice-assistant bench models before the bench page opens: the tiny Whisper fixture and
 * the scripted chat model of the widget tests (a three-sentence answer), and where they are served,
 * in test/.fixtures/bench-assistant.json.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fixturesRoot } from '../../test/fixtures/llm/fixture-dir';
import { ensureWidgetModels } from '../../test/browser/support/widgets';

const models = await ensureWidgetModels();
await writeFile(join(fixturesRoot, 'bench-assistant.json'), JSON.stringify(models));
console.log(`assistant bench models: ${JSON.stringify(models)}`);
