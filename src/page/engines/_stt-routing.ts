import { INDIC_CODES } from '../../catalogue/languages/indic-conformer';
import type { SttEngine, TranscriptionParams } from '../../protocol/transcription';
import { invalidInput } from '../../protocol/errors';

/** Which family answers a request, for which language, and how the language was known. */
export interface SttRoute {
  engine: SttEngine;
  language?: string;
  source: 'request' | 'detected' | 'default';
}

export interface RoutingConfig {
  /** IndicConformer is configured (not turned off with `indic: false`). */
  indic: boolean;
  /** Per-language choices from `models['speech-stt-v1'].languages`. */
  languages: Record<string, SttEngine>;
  /** Languages with a compact per-language model (Shruti) configured; none when absent. */
  shruti?: readonly string[];
}

/** The family for a language: the configured one, else IndicConformer for its 22 languages, else Whisper. */
export function engineFor(language: string, config: RoutingConfig): SttEngine {
  const chosen = config.languages[language];
  if (chosen === 'shruti' && config.shruti?.includes(language)) return chosen;
  if (chosen === 'indic-conformer' && config.indic && INDIC_CODES.includes(language)) return chosen;
  if (chosen === 'whisper') return chosen;
  return config.indic && INDIC_CODES.includes(language) ? 'indic-conformer' : 'whisper';
}

const unsupported = (message: string, param: string) => invalidInput(message, param, 'unsupported_value');

/**
 * Routes a speech-stt-v1 request: translations and other languages to Whisper, the 22 scheduled
 * languages to IndicConformer; without a language, Whisper's language token over the first 30 s
 * decides (`detect`). The request's `engine` field overrides the choice.
 */
export async function routeTranscription(
  params: Pick<TranscriptionParams, 'task' | 'language' | 'engine'>,
  config: RoutingConfig,
  detect: () => Promise<string>,
): Promise<SttRoute> {
  const asked = params.engine ?? 'auto';
  if (asked === 'shruti') return routeShruti(params, config, detect);
  if (asked === 'indic-conformer') {
    if (params.task === 'translate')
      throw unsupported(
        'IndicConformer does not translate: use engine whisper (or auto) for /audio/translations.',
        'engine',
      );
    if (!config.indic) throw unsupported('IndicConformer is turned off for speech-stt-v1 in this page.', 'engine');
  }
  if (params.task === 'translate' || asked === 'whisper')
    return { engine: 'whisper', language: params.language, source: params.language ? 'request' : 'default' };
  if (params.language) {
    if (asked === 'indic-conformer' && !INDIC_CODES.includes(params.language))
      throw unsupported(
        `IndicConformer does not recognise '${params.language}'; it knows ${INDIC_CODES.join(', ')}.`,
        'language',
      );
    const engine = asked === 'indic-conformer' ? asked : engineFor(params.language, config);
    return { engine, language: params.language, source: 'request' };
  }
  if (!config.indic) return { engine: 'whisper', source: 'default' };
  const language = await detect();
  if (asked === 'indic-conformer' && !INDIC_CODES.includes(language))
    throw unsupported(
      `Whisper heard '${language}', which IndicConformer does not recognise: set language to one of ${INDIC_CODES.join(', ')}.`,
      'language',
    );
  return { engine: asked === 'indic-conformer' ? asked : engineFor(language, config), language, source: 'detected' };
}

/** engine=shruti: the language's compact model; the language from the request, else Whisper's detection. */
async function routeShruti(
  params: Pick<TranscriptionParams, 'task' | 'language'>,
  config: RoutingConfig,
  detect: () => Promise<string>,
): Promise<SttRoute> {
  const known = config.shruti ?? [];
  if (params.task === 'translate')
    throw unsupported('Shruti does not translate: use engine whisper (or auto) for /audio/translations.', 'engine');
  if (!known.length) throw unsupported('Shruti is turned off for speech-stt-v1 in this page.', 'engine');
  const language = params.language ?? (await detect());
  if (!known.includes(language))
    throw unsupported(
      `No Shruti model is catalogued for '${language}'; there is one for ${known.join(', ')}.`,
      'language',
    );
  return { engine: 'shruti', language, source: params.language ? 'request' : 'detected' };
}
