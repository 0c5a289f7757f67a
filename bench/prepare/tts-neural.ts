/** Writes the neural-voice bench models (a Piper and a sherpa-onnx VITS layout) before the page opens. */
import { fileURLToPath } from 'node:url';
import { writeVitsBenchFixtures } from '../../test/fixtures/tts-vits/files';

const written = writeVitsBenchFixtures(fileURLToPath(new URL('../..', import.meta.url)));
console.log(`neural-voice bench models at ${written.piper} and ${written.sherpa}`);
