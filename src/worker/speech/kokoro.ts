import { splitClauses } from './prosody';
import { stopped } from '../../protocol/cancel';
import { EngineError } from '../../protocol/errors';
import type { Runtime } from './job';
import { kokoroBatches, kokoroIds, kokoroText, PAD_ID, type KokoroTokenizerJson } from './kokoro-tokens';
import { concat, loadFile, loadJson, loadOrt, memo, openSession, type Session } from './onnx';
import { modelFile } from '../../common/layouts/voices';

export const KOKORO_SAMPLE_RATE = 24_000;
const STYLE_SIZE = 256;

interface KokoroModel {
  session: Session;
  vocab: Record<string, number>;
}

const models = memo<KokoroModel>();
const styles = memo<Float32Array>();

/**
 * Kokoro-82M in the onnx-community layout: `input_ids` (phoneme ids padded with 0), `style` (the
 * voice file's row for that many phonemes) and `speed` → `waveform` at 24 kHz. Phonemes come from
 * eSpeak-NG in the voice's language. Speed is the model's own; stability and style do not apply.
 */
export const speakKokoro: Runtime = async (job, context) => {
  const spec = job.voice.spec;
  if (spec.engine !== 'kokoro')
    throw new EngineError('internal', `Voice '${job.voice.id}' is not a Kokoro voice.`, 'internal_error');
  const files = context.files();
  const key = `${job.weightsBase}|${job.dtype}`;
  const model = await models(key, async () => {
    const [session, tokenizer] = await Promise.all([
      openSession(files, modelFile(job.dtype)),
      loadJson<KokoroTokenizerJson>(files, 'tokenizer.json'),
    ]);
    return { session, vocab: tokenizer.model.vocab };
  });
  const style = await styles(`${job.weightsBase}|${spec.styleFile}`, async () => {
    const bytes = await loadFile(files, spec.styleFile);
    return new Float32Array(bytes.slice().buffer, 0, Math.floor(bytes.byteLength / 4));
  });
  const espeak = await context.espeak();
  const ids = kokoroIds(
    kokoroText(splitClauses(job.text), (clause) => espeak.phonemes(spec.phonemeLanguage, clause)),
    model.vocab,
  );
  if (ids.length === 0)
    throw new EngineError('invalid_input', '`input` has nothing this voice can pronounce.', 'invalid_value', 'input');
  const ort = await loadOrt();
  const parts: Float32Array[] = [];
  for (const batch of kokoroBatches(ids, model.vocab[' '])) {
    if (await stopped(context.signal))
      throw new EngineError('aborted', 'The speech request was cancelled.', 'cancelled');
    const rows = style.length / STYLE_SIZE;
    const row = Math.min(batch.length, rows - 1);
    const output = await model.session.run({
      input_ids: new ort.Tensor('int64', BigInt64Array.from([PAD_ID, ...batch, PAD_ID], BigInt), [1, batch.length + 2]),
      style: new ort.Tensor('float32', style.slice(row * STYLE_SIZE, (row + 1) * STYLE_SIZE), [1, STYLE_SIZE]),
      speed: new ort.Tensor('float32', Float32Array.of(job.speed), [1]),
    });
    parts.push(output.waveform!.data as Float32Array);
  }
  return { samples: concat(parts), sampleRate: KOKORO_SAMPLE_RATE };
};
