import * as v from 'valibot';
import { defaultModel } from '../../../catalogue/families';
import { SPEECH_FORMATS } from '../../../protocol/speech';

const unit = v.pipe(v.number(), v.finite(), v.minValue(0), v.maxValue(1));
export const speed = v.pipe(v.number(), v.finite(), v.minValue(0.5), v.maxValue(2));

/** Longest `input` for /audio/speech, in characters. */
export const MAX_SPEECH_CHARS = 4096;

export const speechSchema = v.object({
  model: v.pipe(v.string(), v.minLength(1)),
  voice: v.pipe(v.string(), v.minLength(1)),
  input: v.pipe(
    v.string(),
    v.minLength(1, 'must not be empty'),
    v.maxLength(MAX_SPEECH_CHARS, `must be at most ${MAX_SPEECH_CHARS} characters`),
  ),
  speed: v.optional(speed, 1),
  stability: v.optional(unit, 0.5),
  style: v.optional(unit, 0.35),
  response_format: v.optional(v.picklist(SPEECH_FORMATS), 'wav'),
  apply_text_normalization: v.optional(v.picklist(['auto', 'on', 'off'], "must be 'auto', 'on' or 'off'"), 'auto'),
});

/** Multipart fields are text: numbers are parsed before the schema sees them. */
export const numeric = <S extends v.GenericSchema<number>>(schema: S) =>
  v.pipe(
    v.string(),
    v.transform((text) => (text.trim() === '' ? NaN : Number(text))),
    v.number('must be a number'),
    schema,
  );

const file = v.pipe(
  v.instance(File, 'must be a file upload'),
  v.check((f) => f.size > 0, 'must not be empty'),
);

/** A multipart boolean: the text 'true' or 'false'. */
export const textBoolean = v.pipe(
  v.picklist(['true', 'false'], "must be 'true' or 'false'"),
  v.transform((text) => text === 'true'),
);

/** A number given as a number (JSON) or as text (a multipart part). */
const loose = <S extends v.GenericSchema<number>>(schema: S) => v.union([schema, numeric(schema)]);

/** OpenAI's server_vad chunking object; its fields arrive as `chunking_strategy[key]` parts or in JSON text. */
const serverVad = v.object({
  type: v.literal('server_vad', "must be 'server_vad'"),
  prefix_padding_ms: v.optional(loose(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(2000))), 300),
  silence_duration_ms: v.optional(loose(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(5000))), 200),
  threshold: v.optional(loose(v.pipe(v.number(), v.minValue(0), v.maxValue(1))), 0.5),
});

const chunkingStrategy = v.union(
  [
    v.pipe(
      v.literal('auto'),
      v.transform(() => ({
        type: 'server_vad' as const,
        prefix_padding_ms: 300,
        silence_duration_ms: 200,
        threshold: 0.5,
      })),
    ),
    v.pipe(v.string(), v.startsWith('{'), v.parseJson(), serverVad),
    serverVad,
  ],
  "must be 'auto' or { type: 'server_vad', prefix_padding_ms?, silence_duration_ms?, threshold? }",
);

export const transcriptionSchema = v.object({
  file,
  model: v.pipe(v.string(), v.minLength(1)),
  response_format: v.optional(v.picklist(['json', 'text', 'verbose_json', 'srt', 'vtt']), 'json'),
  language: v.optional(v.pipe(v.string(), v.regex(/^[a-z]{2,3}$/, 'must be an ISO-639-1 code such as hi or en'))),
  prompt: v.optional(v.string()),
  temperature: v.optional(numeric(v.pipe(v.number(), v.minValue(0), v.maxValue(1))), '0'),
  timestamp_granularities: v.optional(v.array(v.picklist(['word', 'segment'])), ['segment']),
  /** Vaani extensions: which recogniser (speech-stt-v1 routes by language by default; 'shruti' the compact per-language model) and IndicConformer's decoder. */
  engine: v.optional(v.picklist(['auto', 'indic-conformer', 'whisper', 'shruti']), 'auto'),
  decoding: v.optional(v.picklist(['ctc', 'rnnt'])),
  /** OpenAI's field: Whisper cuts the audio at pauses Silero VAD finds (IndicConformer always does). */
  chunking_strategy: v.optional(chunkingStrategy),
  /** Vaani extensions: Whisper's guards, named as in OpenAI's `transcribe()` (its defaults when absent). */
  temperature_increment_on_fallback: v.optional(numeric(v.pipe(v.number(), v.minValue(0), v.maxValue(1)))),
  compression_ratio_threshold: v.optional(numeric(v.pipe(v.number(), v.minValue(0)))),
  logprob_threshold: v.optional(numeric(v.pipe(v.number(), v.maxValue(0)))),
  no_speech_threshold: v.optional(numeric(v.pipe(v.number(), v.minValue(0), v.maxValue(1)))),
  condition_on_previous_text: v.optional(textBoolean),
  /** OpenAI's field: Server-Sent Events, `transcript.text.delta` as windows are decoded, then `transcript.text.done`. */
  stream: v.optional(textBoolean),
});

export const transformSchema = v.object({
  file,
  model: v.optional(v.pipe(v.string(), v.minLength(1)), defaultModel('/audio/isolate')),
  voice: v.optional(v.pipe(v.string(), v.minLength(1))),
  speed: v.optional(numeric(speed), '1'),
  stability: v.optional(numeric(unit), '0.5'),
  style: v.optional(numeric(unit), '0.35'),
});
