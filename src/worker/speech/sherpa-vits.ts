import { stopped } from '../../protocol/cancel';
import { EngineError } from '../../protocol/errors';
import type { Runtime } from './job';
import { brokenFile, concat, loadFile, loadOrt, memo, sessionFromBytes, type Session } from './onnx';
import { onnxMetadata } from './onnx-metadata';
import { parseTokens, sherpaCharacterIds, sherpaVitsMeta, type SherpaVitsMeta } from './sherpa-tokens';
import { vitsScales } from './vits-controls';
import type { SherpaVitsSpec } from '../../protocol/speech';

interface SherpaModel {
  session: Session;
  meta: SherpaVitsMeta;
  tokens: Map<string, number>;
}

const models = memo<SherpaModel>();
const MODEL_FILE = 'model.onnx';
/** Silence between sentences (sherpa-onnx joins them with none; a short pause reads better). */
export const SENTENCE_SILENCE_SECONDS = 0.2;

const scalar = (ort: Awaited<ReturnType<typeof loadOrt>>, value: number) =>
  new ort.Tensor('float32', Float32Array.of(value), [1]);

/**
 * sherpa-onnx's VITS layout: `model.onnx`, whose metadata_props hold sample_rate, add_blank,
 * n_speakers, frontend…, and `tokens.txt`. Character-token voices (`frontend: characters`, or no
 * lexicon) need no phonemiser: text → token ids per sentence → `x`, `x_length`, `noise_scale`,
 * `length_scale`, `noise_scale_w`, `sid` (and `emotion_id` where the graph takes it) → `y`.
 */
export const speakSherpaVits: Runtime = async (job, context) => {
  const spec = job.voice.spec as SherpaVitsSpec;
  const files = context.files();
  const model = await models(`${job.weightsBase}`, async () => {
    const [bytes, tokenBytes] = await Promise.all([loadFile(files, MODEL_FILE), loadFile(files, 'tokens.txt')]);
    let meta: SherpaVitsMeta;
    let tokens: Map<string, number>;
    try {
      meta = sherpaVitsMeta(onnxMetadata(bytes));
    } catch (error) {
      throw brokenFile(MODEL_FILE, error instanceof Error ? error.message : String(error));
    }
    if (meta.frontend && meta.frontend !== 'characters')
      throw new EngineError(
        'invalid_input',
        `Voice '${job.voice.id}' needs sherpa-onnx's '${meta.frontend}' front end (a lexicon or phonemiser), which this runtime does not have; character-token voices only.`,
        'voice_unavailable',
        'voice',
      );
    try {
      tokens = parseTokens(new TextDecoder().decode(tokenBytes));
    } catch (error) {
      throw brokenFile('tokens.txt', error instanceof Error ? error.message : String(error));
    }
    return { session: await sessionFromBytes(bytes, MODEL_FILE), meta, tokens };
  });
  const { session, meta } = model;
  if (spec.speaker >= meta.speakers)
    throw brokenFile(
      MODEL_FILE,
      `it has ${meta.speakers} speakers; voice '${job.voice.id}' is speaker ${spec.speaker}`,
    );
  const scales = vitsScales({}, job);
  const ort = await loadOrt();
  const parts: Float32Array[] = [];
  for (const ids of sherpaCharacterIds(job.text, model.tokens, meta)) {
    if (await stopped(context.signal))
      throw new EngineError('aborted', 'The speech request was cancelled.', 'cancelled');
    const feeds: Record<string, import('onnxruntime-web').Tensor> = {
      x: new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), [1, ids.length]),
      x_length: new ort.Tensor('int64', BigInt64Array.of(BigInt(ids.length)), [1]),
      noise_scale: scalar(ort, scales.noiseScale),
      length_scale: scalar(ort, scales.lengthScale),
      noise_scale_w: scalar(ort, scales.noiseW),
      sid: new ort.Tensor('int64', BigInt64Array.of(BigInt(spec.speaker)), [1]),
    };
    if (session.inputNames.includes('emotion_id'))
      feeds.emotion_id = new ort.Tensor('int64', BigInt64Array.of(BigInt(spec.emotion ?? 0)), [1]);
    for (const name of Object.keys(feeds)) if (!session.inputNames.includes(name)) delete feeds[name];
    const output = await session.run(feeds);
    parts.push(output.y!.data as Float32Array);
  }
  if (parts.length === 0)
    throw new EngineError('invalid_input', '`input` has nothing this voice can pronounce.', 'invalid_value', 'input');
  const sampleRate = spec.sampleRate ?? meta.sampleRate;
  return { samples: concat(parts, Math.round(SENTENCE_SILENCE_SECONDS * sampleRate)), sampleRate };
};
