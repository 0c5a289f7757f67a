import { splitClauses } from './prosody';
import { stopped } from '../../protocol/cancel';
import { EngineError } from '../../protocol/errors';
import type { Runtime, SpeakContext } from './job';
import { brokenFile, concat, loadJson, loadOrt, memo, openSession, type Session } from './onnx';
import { piperClausePhonemes, piperPhonemeIds, piperTextPhonemes, type PiperConfig } from './piper-ids';
import { vitsScales } from './vits-controls';
import type { PiperSpec } from '../../protocol/speech';

interface PiperModel {
  session: Session;
  config: PiperConfig;
  sampleRate: number;
}

const models = memo<PiperModel>();
/** Silence between sentences, Piper's default sentence_silence. */
export const SENTENCE_SILENCE_SECONDS = 0.2;
const SENTENCE_END = /[.!?।॥۔؟]$/u;

/** The config's parts the runtime needs, or a 503 naming what is missing. */
function checkConfig(file: string, config: PiperConfig): PiperConfig {
  if (!config || typeof config !== 'object' || typeof config.phoneme_id_map !== 'object' || !config.phoneme_id_map)
    throw brokenFile(file, 'it has no phoneme_id_map (is it a Piper voice config?)');
  const type = config.phoneme_type ?? 'espeak';
  if (type !== 'espeak' && type !== 'text')
    throw brokenFile(file, `phoneme_type '${type}' is not one this runtime reads (espeak, text)`);
  if (type === 'espeak' && !config.espeak?.voice) throw brokenFile(file, 'an espeak voice needs espeak.voice');
  return config;
}

/** Sentences of clauses: Piper speaks one sentence per run. */
export function piperSentences(text: string): string[][] {
  const out: string[][] = [];
  let current: string[] = [];
  for (const clause of splitClauses(text)) {
    current.push(clause);
    if (SENTENCE_END.test(clause)) {
      out.push(current);
      current = [];
    }
  }
  if (current.length) out.push(current);
  return out;
}

async function phonemizer(job: Parameters<Runtime>[0], context: SpeakContext, config: PiperConfig) {
  if ((config.phoneme_type ?? 'espeak') === 'text')
    return (sentence: string[]) => piperTextPhonemes(sentence.join(' '));
  const espeak = await context.espeak().catch((error: unknown) => {
    if (error instanceof EngineError && error.code === 'tts_plugin_missing')
      throw new EngineError(
        'unavailable',
        `The voice '${job.voice.id}' is a Piper voice that reads eSpeak-NG phonemes: it needs the optional eSpeak-NG plug-in (GPL-3.0, not bundled). ${error.message}`,
        'tts_plugin_missing',
      );
    throw error;
  });
  const voice = config.espeak!.voice!;
  return (sentence: string[]) =>
    sentence.map((clause) => piperClausePhonemes(clause, espeak.phonemes(voice, clause))).join('');
}

/**
 * Piper (rhasspy) in its own layout: `<voice>.onnx` and `<voice>.onnx.json`. Text → phonemes (eSpeak-NG
 * IPA in the config's espeak.voice, or the characters themselves for `text` voices) → Piper's phoneme
 * ids → `input`, `input_lengths`, `scales` (noise_scale, length_scale, noise_w) and `sid` for a
 * multi-speaker model → `output`, one sentence per run with 0.2 s between.
 */
export const speakPiper: Runtime = async (job, context) => {
  const spec = job.voice.spec as PiperSpec;
  const files = context.files();
  const configFile = `${spec.file}.json`;
  const model = await models(`${job.weightsBase}|${spec.file}`, async () => {
    const [session, config] = await Promise.all([
      openSession(files, spec.file),
      loadJson<PiperConfig>(files, configFile),
    ]);
    checkConfig(configFile, config);
    return { session, config, sampleRate: config.audio?.sample_rate ?? 22_050 };
  });
  const { config, session } = model;
  const phonemes = await phonemizer(job, context, config);
  const inference = config.inference ?? {};
  const scales = vitsScales(
    { noiseScale: inference.noise_scale, lengthScale: inference.length_scale, noiseW: inference.noise_w },
    job,
  );
  const ort = await loadOrt();
  const speakers = config.num_speakers ?? 1;
  const parts: Float32Array[] = [];
  for (const sentence of piperSentences(job.text)) {
    if (await stopped(context.signal))
      throw new EngineError('aborted', 'The speech request was cancelled.', 'cancelled');
    const ids = piperPhonemeIds(phonemes(sentence), config.phoneme_id_map);
    if (ids.length <= 3) continue;
    const feeds: Record<string, import('onnxruntime-web').Tensor> = {
      input: new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), [1, ids.length]),
      input_lengths: new ort.Tensor('int64', BigInt64Array.of(BigInt(ids.length)), [1]),
      scales: new ort.Tensor('float32', Float32Array.of(scales.noiseScale, scales.lengthScale, scales.noiseW), [3]),
    };
    if (speakers > 1 || session.inputNames.includes('sid'))
      feeds.sid = new ort.Tensor('int64', BigInt64Array.of(BigInt(spec.speaker ?? 0)), [1]);
    const output = await session.run(feeds);
    parts.push(output.output!.data as Float32Array);
  }
  if (parts.length === 0)
    throw new EngineError('invalid_input', '`input` has nothing this voice can pronounce.', 'invalid_value', 'input');
  return {
    samples: concat(parts, Math.round(SENTENCE_SILENCE_SECONDS * model.sampleRate)),
    sampleRate: model.sampleRate,
  };
};
