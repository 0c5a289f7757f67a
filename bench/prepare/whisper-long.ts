/**
 * Writes what the whisper-long scenario reads: the whisper-tiny-sized bench model (random weights,
 * as bench/prepare/whisper.ts does) and a 3-minute noisy talk made with sox from the real clips in
 * ../shared/audio with pauses of 6 to 30 s (test/.fixtures/whisper/audio/talk-3min.wav).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { TINY_DIMS } from '../../test/fixtures/whisper/dims';
import { FIXTURE_ROOT } from '../../test/fixtures/whisper/ensure';
import { longAudio, TALK_3MIN } from '../../test/fixtures/whisper/long-audio';
import { writeWhisperFixture } from '../../test/fixtures/whisper/write';

const dir = join(FIXTURE_ROOT, 'bench-tiny');
if (!existsSync(join(dir, 'onnx/decoder_model_merged.onnx'))) await writeWhisperFixture(dir, TINY_DIMS);
const talk = longAudio('talk-3min', TALK_3MIN);
console.log(`whisper-long: ${talk.duration.toFixed(1)} s at ${talk.path}, speech ${JSON.stringify(talk.speech)}`);
