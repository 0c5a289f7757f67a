import { splitClauses } from './prosody';
import { stopped } from '../../protocol/cancel';
import { EngineError } from '../../protocol/errors';
import type { Runtime } from './job';
import { concat, loadJson, loadOrt, memo, openSession, type Session } from './onnx';
import { modelFile } from '../../common/layouts/voices';
import { sonicStretch } from '../../common/audio/sonic';
import { vitsIds, type VitsTokenizerConfig } from './vits-tokens';

interface VitsModel {
  session: Session;
  vocab: Record<string, number>;
  tokenizer: VitsTokenizerConfig;
  sampleRate: number;
}

const models = memo<VitsModel>();
const CLAUSE_GAP_SECONDS = 0.15;

/**
 * VITS / MMS-TTS in the transformers.js layout: characters → `input_ids` (+ `attention_mask`) →
 * `waveform`, one clause at a time. The export fixes the speaking rate, so speed is applied by a
 * pitch-preserving time stretch (Sonic); stability and style do not apply.
 */
export const speakVits: Runtime = async (job, context) => {
  const files = context.files();
  const model = await models(`${job.weightsBase}|${job.dtype}`, async () => {
    const [session, vocab, tokenizer, config] = await Promise.all([
      openSession(files, modelFile(job.dtype)),
      loadJson<Record<string, number>>(files, 'vocab.json'),
      loadJson<VitsTokenizerConfig>(files, 'tokenizer_config.json'),
      loadJson<{ sampling_rate?: number }>(files, 'config.json'),
    ]);
    if (tokenizer.is_uroman)
      throw new EngineError(
        'invalid_input',
        `Voice '${job.voice.id}' needs uroman romanisation, which this runtime does not do.`,
        'voice_unavailable',
        'voice',
      );
    return { session, vocab, tokenizer, sampleRate: config.sampling_rate ?? 16_000 };
  });
  const ort = await loadOrt();
  const parts: Float32Array[] = [];
  for (const clause of splitClauses(job.text)) {
    if (await stopped(context.signal))
      throw new EngineError('aborted', 'The speech request was cancelled.', 'cancelled');
    const ids = vitsIds(clause, model.vocab, model.tokenizer);
    if (ids.length <= 1) continue;
    const shape = [1, ids.length];
    const feeds: Record<string, import('onnxruntime-web').Tensor> = {
      input_ids: new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), shape),
    };
    if (model.session.inputNames.includes('attention_mask'))
      feeds.attention_mask = new ort.Tensor('int64', new BigInt64Array(ids.length).fill(1n), shape);
    const output = await model.session.run(feeds);
    parts.push(output.waveform!.data as Float32Array);
  }
  if (parts.length === 0)
    throw new EngineError('invalid_input', '`input` has nothing this voice can pronounce.', 'invalid_value', 'input');
  const samples = concat(parts, Math.round(CLAUSE_GAP_SECONDS * model.sampleRate));
  return {
    samples:
      job.speed === 1
        ? samples
        : await sonicStretch(samples, model.sampleRate, Float64Array.of(0, samples.length), Float32Array.of(job.speed)),
    sampleRate: model.sampleRate,
  };
};
