/**
 * Writes the Whisper bench models before the bench page opens: whisper-tiny's and whisper-base's
 * sizes with seeded random weights, fp32, at test/.fixtures/whisper/bench-{tiny,base}/, and 30 s of
 * speech (jfk.flac looped) as 16 kHz mono WAV at test/.fixtures/whisper/audio/bench-30s.wav.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { convert, WAV_16K_MONO } from '../../test/fixtures/whisper/audio';
import { BASE_DIMS, TINY_DIMS } from '../../test/fixtures/whisper/dims';
import { FIXTURE_ROOT } from '../../test/fixtures/whisper/ensure';
import { writeWhisperFixture } from '../../test/fixtures/whisper/write';

for (const [name, dims] of [
  ['bench-tiny', TINY_DIMS],
  ['bench-base', BASE_DIMS],
] as const) {
  const dir = join(FIXTURE_ROOT, name);
  if (!existsSync(join(dir, 'onnx/decoder_model_merged.onnx'))) await writeWhisperFixture(dir, dims);
  console.log(`whisper bench model at ${dir}`);
}
convert('jfk.flac', join(FIXTURE_ROOT, 'audio/bench-30s.wav'), [
  '-af',
  'aloop=loop=2:size=485100',
  '-t',
  '30',
  ...WAV_16K_MONO,
]);
