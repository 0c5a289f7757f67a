import { EngineError } from '../protocol/errors';
import type { CatalogueVoice, Download, Voice } from '../protocol/speech';
import { defaultModel } from './families';
import { piperTeluguVoice, rasaVoices } from './neural-voices';

/** The TTS model id every catalogue voice is spoken with (the engine is chosen per voice). */
export const TTS_MODEL = defaultModel('voices');

/** `createVaani({ models: { 'espeak-ng': { baseURL } } })` says where the eSpeak plug-in's espeak-ng.js and .data are served. */
export const ESPEAK_KEY = 'espeak-ng';

interface Language {
  code: string;
  languageCode: string;
  name: string;
  espeak: string;
  sample: string;
  /** Median F0 (Hz) of the female and male eSpeak voices speaking `sample` at default settings (test/browser/speech.spec.ts checks it within 10 %). */
  f0: readonly [female: number, male: number];
}

const ENGLISH_SAMPLE = 'Hello, how are you? The weather is lovely today.';

/** The bundled eSpeak-NG languages: 15 Indian languages and three English accents. */
export const LANGUAGES: readonly Language[] = [
  {
    code: 'hi',
    languageCode: 'hi-IN',
    name: 'Hindi',
    espeak: 'hi',
    sample: 'नमस्ते, आप कैसे हैं? आज मौसम बहुत अच्छा है।',
    f0: [192.0, 91.2],
  },
  {
    code: 'bn',
    languageCode: 'bn-IN',
    name: 'Bengali',
    espeak: 'bn',
    sample: 'নমস্কার, আপনি কেমন আছেন? আজ আবহাওয়া খুব ভালো।',
    f0: [211.3, 104.7],
  },
  {
    code: 'ta',
    languageCode: 'ta-IN',
    name: 'Tamil',
    espeak: 'ta',
    sample: 'வணக்கம், நீங்கள் எப்படி இருக்கிறீர்கள்? இன்று வானிலை நன்றாக இருக்கிறது.',
    f0: [209.6, 99.8],
  },
  {
    code: 'te',
    languageCode: 'te-IN',
    name: 'Telugu',
    espeak: 'te',
    sample: 'నమస్కారం, మీరు ఎలా ఉన్నారు? ఈ రోజు వాతావరణం చాలా బాగుంది.',
    f0: [200.8, 94.6],
  },
  {
    code: 'mr',
    languageCode: 'mr-IN',
    name: 'Marathi',
    espeak: 'mr',
    sample: 'नमस्कार, तुम्ही कसे आहात? आज हवामान खूप छान आहे.',
    f0: [224.9, 112.9],
  },
  {
    code: 'gu',
    languageCode: 'gu-IN',
    name: 'Gujarati',
    espeak: 'gu',
    sample: 'નમસ્તે, તમે કેમ છો? આજે હવામાન ખૂબ સરસ છે.',
    f0: [202.1, 89.6],
  },
  {
    code: 'kn',
    languageCode: 'kn-IN',
    name: 'Kannada',
    espeak: 'kn',
    sample: 'ನಮಸ್ಕಾರ, ನೀವು ಹೇಗಿದ್ದೀರಿ? ಇಂದು ಹವಾಮಾನ ತುಂಬಾ ಚೆನ್ನಾಗಿದೆ.',
    f0: [201.7, 106.0],
  },
  {
    code: 'ml',
    languageCode: 'ml-IN',
    name: 'Malayalam',
    espeak: 'ml',
    sample: 'നമസ്കാരം, സുഖമാണോ? ഇന്ന് കാലാവസ്ഥ വളരെ നല്ലതാണ്.',
    f0: [207.8, 105.2],
  },
  {
    code: 'pa',
    languageCode: 'pa-IN',
    name: 'Punjabi',
    espeak: 'pa',
    sample: 'ਸਤ ਸ੍ਰੀ ਅਕਾਲ, ਤੁਸੀਂ ਕਿਵੇਂ ਹੋ? ਅੱਜ ਮੌਸਮ ਬਹੁਤ ਵਧੀਆ ਹੈ।',
    f0: [223.6, 110.1],
  },
  {
    code: 'or',
    languageCode: 'or-IN',
    name: 'Odia',
    espeak: 'or',
    sample: 'ନମସ୍କାର, ଆପଣ କେମିତି ଅଛନ୍ତି? ଆଜି ପାଣିପାଗ ବହୁତ ଭଲ।',
    f0: [197.1, 94.0],
  },
  {
    code: 'as',
    languageCode: 'as-IN',
    name: 'Assamese',
    espeak: 'as',
    sample: 'নমস্কাৰ, আপুনি কেনে আছে? আজি বতৰ বৰ ভাল।',
    f0: [214.9, 98.7],
  },
  {
    code: 'ur',
    languageCode: 'ur-IN',
    name: 'Urdu',
    espeak: 'ur',
    sample: 'السلام علیکم، آپ کیسے ہیں؟ آج موسم بہت اچھا ہے۔',
    f0: [205.2, 94.2],
  },
  {
    code: 'ne',
    languageCode: 'ne-IN',
    name: 'Nepali',
    espeak: 'ne',
    sample: 'नमस्ते, तपाईंलाई कस्तो छ? आज मौसम धेरै राम्रो छ।',
    f0: [220.8, 112.2],
  },
  {
    code: 'sd',
    languageCode: 'sd-IN',
    name: 'Sindhi',
    espeak: 'sd',
    sample: 'سلام، توهان ڪيئن آهيو؟ اڄ موسم ڏاڍو سٺو آهي.',
    f0: [209.6, 96.5],
  },
  {
    code: 'kok',
    languageCode: 'kok-IN',
    name: 'Konkani',
    espeak: 'kok',
    sample: 'नमस्कार, तुमी कशें आसात? आयज हवामान खूब बरें आसा.',
    f0: [215.6, 108.3],
  },
  {
    code: 'en',
    languageCode: 'en-IN',
    name: 'English (India)',
    espeak: 'en',
    sample: ENGLISH_SAMPLE,
    f0: [196.5, 94.9],
  },
  {
    code: 'en',
    languageCode: 'en-US',
    name: 'English (United States)',
    espeak: 'en-us',
    sample: ENGLISH_SAMPLE,
    f0: [197.8, 93.0],
  },
  {
    code: 'en',
    languageCode: 'en-GB',
    name: 'English (United Kingdom)',
    espeak: 'en',
    sample: ENGLISH_SAMPLE,
    f0: [194.5, 93.0],
  },
];

/** eSpeak variants: f3 sounds female (F0 about 205 Hz), m2 male (about 100 Hz). */
const FEMALE_VARIANT = 'f3';
const MALE_VARIANT = 'm2';
export const FEMALE_FORMANT_SCALE = 1.17;
export const MALE_FORMANT_SCALE = 1.0;

/** eSpeak-NG is GPL-3.0 (the optional plug-in); the speech it makes carries no licence terms. */
const ESPEAK_LICENSE = { license: 'GPL-3.0-or-later', commercial: true } as const;

const espeakVoices = (language: Language): CatalogueVoice[] =>
  (['female', 'male'] as const).map((gender) => ({
    id: `${language.languageCode}-${gender}-1`,
    name: `${language.name} ${gender} (eSpeak)`,
    language: language.name,
    languageCode: language.languageCode,
    gender,
    model: TTS_MODEL,
    spec: {
      engine: 'espeak',
      espeakVoice: `${language.espeak}+${gender === 'female' ? FEMALE_VARIANT : MALE_VARIANT}`,
    },
    medianF0: gender === 'female' ? language.f0[0] : language.f0[1],
    formantScale: gender === 'female' ? FEMALE_FORMANT_SCALE : MALE_FORMANT_SCALE,
    sampleText: language.sample,
    ...ESPEAK_LICENSE,
  }));

const HINDI_SAMPLE = LANGUAGES[0]!.sample;

/** onnx-community/Kokoro-82M-v1.0-ONNX: the q8 model (92.4 MB) plus one 510×256 float32 style file. */
const KOKORO_STYLE_BYTES = 510 * 256 * 4;
const kokoroDownload = (styleFile: string): Download => {
  const files = [
    { path: 'onnx/model_quantized.onnx', bytes: 92_400_000 },
    { path: 'tokenizer.json', bytes: 3_500 },
    { path: styleFile, bytes: KOKORO_STYLE_BYTES },
  ];
  return {
    weights: 'kokoro-82m',
    repo: 'onnx-community/Kokoro-82M-v1.0-ONNX',
    revision: '1939ad2a8e416c0acfeecc08a694d14ef25f2231',
    files,
    bytes: files.reduce((sum, f) => sum + f.bytes, 0),
  };
};

const kokoroVoice = (style: string, gender: 'female' | 'male', label: string): CatalogueVoice => ({
  id: `hi-IN-kokoro-${label.toLowerCase()}`,
  name: `${label} (Hindi, Kokoro neural)`,
  language: 'Hindi',
  languageCode: 'hi-IN',
  gender,
  model: TTS_MODEL,
  spec: {
    engine: 'kokoro',
    styleFile: `voices/${style}.bin`,
    phonemeLanguage: 'hi',
    download: kokoroDownload(`voices/${style}.bin`),
  },
  medianF0: gender === 'female' ? 210 : 110,
  formantScale: gender === 'female' ? FEMALE_FORMANT_SCALE : MALE_FORMANT_SCALE,
  sampleText: HINDI_SAMPLE,
  /** hexgrad/Kokoro-82M's model card: Apache-2.0 weights. */
  license: 'Apache-2.0',
  commercial: true,
});

/** Xenova/mms-tts-hin: Meta's MMS-TTS Hindi VITS, quantised (38.4 MB), 16 kHz. */
const mmsHindi: CatalogueVoice = {
  id: 'hi-IN-mms-1',
  name: 'MMS Hindi (VITS neural)',
  language: 'Hindi',
  languageCode: 'hi-IN',
  gender: 'neutral',
  model: TTS_MODEL,
  spec: {
    engine: 'vits',
    download: {
      weights: 'mms-tts-hin',
      repo: 'Xenova/mms-tts-hin',
      revision: '3fc18cc9d5ce10023fb0d22e8339e318fdcae9d9',
      files: [
        { path: 'onnx/model_quantized.onnx', bytes: 38_400_000 },
        { path: 'vocab.json', bytes: 907 },
        { path: 'tokenizer_config.json', bytes: 654 },
        { path: 'config.json', bytes: 1_660 },
      ],
      bytes: 38_400_000 + 907 + 654 + 1_660,
    },
  },
  medianF0: 150,
  formantScale: 1.08,
  sampleText: HINDI_SAMPLE,
  /** facebook/mms-tts-hin's model card: CC-BY-NC-4.0, not for commercial use. */
  license: 'CC-BY-NC-4.0',
  attribution: 'Voice: MMS-TTS Hindi by Meta AI (facebook/mms-tts-hin), CC BY-NC 4.0.',
  commercial: false,
};

/** Every voice of the catalogue, offline eSpeak voices first. */
export const VOICES: readonly CatalogueVoice[] = [
  ...LANGUAGES.flatMap(espeakVoices),
  kokoroVoice('hf_alpha', 'female', 'Alpha'),
  kokoroVoice('hf_beta', 'female', 'Beta'),
  kokoroVoice('hm_omega', 'male', 'Omega'),
  kokoroVoice('hm_psi', 'male', 'Psi'),
  mmsHindi,
  ...rasaVoices({ model: TTS_MODEL }),
  piperTeluguVoice({ model: TTS_MODEL }),
];

export const findVoice = (id: string) => VOICES.find((voice) => voice.id === id);

/**
 * A neural voice family's weights as one model for the store (`ai.models.load('kokoro-82m')`): its
 * hub repo and every file its voices read (Kokoro: the model and each voice's style file).
 */
export function voiceWeights(
  weights: string,
): { repo: string; revision: string; files: { name: string }[] } | undefined {
  const downloads = VOICES.flatMap((voice) =>
    voice.spec.engine !== 'espeak' && voice.spec.download.weights === weights ? [voice.spec.download] : [],
  );
  if (!downloads.length) return undefined;
  // Names only: the catalogue's byte counts are the published sizes rounded, not a check.
  const names = new Set(downloads.flatMap((download) => download.files.map((file) => file.path)));
  return { repo: downloads[0]!.repo, revision: downloads[0]!.revision, files: [...names].map((name) => ({ name })) };
}

/** Whether a voice must download weights before it can speak. */
export const needsDownload = (voice: CatalogueVoice) => voice.spec.engine !== 'espeak';

/** The public fields of GET /v1/voices' items plus the model, as the engines list them. */
export const toVoice = ({
  id,
  name,
  language,
  languageCode,
  gender,
  model,
  spec,
  license,
  attribution,
  commercial,
}: CatalogueVoice): Voice => ({
  id,
  name,
  language,
  languageCode,
  gender,
  model,
  ...(spec.engine === 'espeak' ? {} : { downloadBytes: spec.download.bytes, weights: spec.download.weights }),
  license,
  ...(attribution ? { attribution } : {}),
  commercial,
});

/** The error for a voice id the catalogue does not have. */
export const voiceNotFound = (voice: string | undefined) =>
  new EngineError(
    'not_found',
    `The voice '${voice}' does not exist. GET /v1/voices lists the voices.`,
    'voice_not_found',
    'voice',
  );
