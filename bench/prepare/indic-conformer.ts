/**
 * Writes the IndicConformer bench models before the bench page opens, with seeded random weights:
 * the fixture size (fp32) and IndicConformer 600M's real shapes with int8 MatMuls (as the published
 * int8 copies: dynamic quantisation), CTC head only, under test/.fixtures/indic-conformer/; the
 * Whisper-base bench model it is compared with; and 15 s of speech (one window) as 16 kHz WAV.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { FIXTURE_DIMS, REAL_DIMS } from '../../test/fixtures/indic-conformer/dims';
import { FIXTURE_ROOT } from '../../test/fixtures/indic-conformer/ensure';
import { indicConformerFiles } from '../../test/fixtures/indic-conformer/files';
import { convert, WAV_16K_MONO } from '../../test/fixtures/whisper/audio';
import { BASE_DIMS } from '../../test/fixtures/whisper/dims';
import { FIXTURE_ROOT as WHISPER_ROOT } from '../../test/fixtures/whisper/ensure';
import { writeWhisperFixture } from '../../test/fixtures/whisper/write';

for (const [name, dims] of [
  ['bench-tiny', FIXTURE_DIMS],
  ['bench-real-int8', REAL_DIMS],
] as const) {
  const dir = join(FIXTURE_ROOT, name);
  if (!existsSync(join(dir, 'assets/ctc_decoder.onnx'))) {
    for (const [path, bytes] of indicConformerFiles(dims, 1, false)) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), bytes);
    }
  }
  console.log(`IndicConformer bench model at ${dir}`);
}
const whisperBase = join(WHISPER_ROOT, 'bench-base');
if (!existsSync(join(whisperBase, 'onnx/decoder_model_merged.onnx'))) await writeWhisperFixture(whisperBase, BASE_DIMS);
convert('jfk.flac', join(FIXTURE_ROOT, 'audio/bench-15s.wav'), [
  '-af',
  'aloop=loop=1:size=485100',
  '-t',
  '15',
  ...WAV_16K_MONO,
]);
