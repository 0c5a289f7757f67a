/**
 * Writes the compact-STT bench models before the bench page opens (seeded random weights): Shruti's
 * real shapes in sherpa-onnx's Moonshine layout (test/fixtures/moonshine BENCH_DIMS), IndicConformer
 * 600M's real shapes with int8 MatMuls and Whisper-base's sizes (the same files the indic-conformer
 * scenario writes), and 30 s of speech as 16 kHz WAV.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { REAL_DIMS } from '../../test/fixtures/indic-conformer/dims';
import { FIXTURE_ROOT } from '../../test/fixtures/indic-conformer/ensure';
import { indicConformerFiles } from '../../test/fixtures/indic-conformer/files';
import { BENCH_DIMS, writeMoonshineFixture } from '../../test/fixtures/moonshine/files';
import { convert, WAV_16K_MONO } from '../../test/fixtures/whisper/audio';
import { BASE_DIMS } from '../../test/fixtures/whisper/dims';
import { FIXTURE_ROOT as WHISPER_ROOT } from '../../test/fixtures/whisper/ensure';
import { writeWhisperFixture } from '../../test/fixtures/whisper/write';

console.log(`Shruti-shaped bench model at ${writeMoonshineFixture(process.cwd(), 'bench-real', BENCH_DIMS).dir}`);
const indic = join(FIXTURE_ROOT, 'bench-real-int8');
if (!existsSync(join(indic, 'assets/ctc_decoder.onnx')))
  for (const [path, bytes] of indicConformerFiles(REAL_DIMS, 1, false)) {
    await mkdir(dirname(join(indic, path)), { recursive: true });
    await writeFile(join(indic, path), bytes);
  }
const whisperBase = join(WHISPER_ROOT, 'bench-base');
if (!existsSync(join(whisperBase, 'onnx/decoder_model_merged.onnx'))) await writeWhisperFixture(whisperBase, BASE_DIMS);
convert('jfk.flac', join(process.cwd(), 'test/.fixtures/moonshine/audio/bench-30s.wav'), [
  '-af',
  'aloop=loop=2:size=485100',
  '-t',
  '30',
  ...WAV_16K_MONO,
]);
