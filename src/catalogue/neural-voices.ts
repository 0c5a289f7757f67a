import type { CatalogueVoice, Download } from '../protocol/speech';
import { UNPINNED } from './families';

/** The fields every catalogue voice shares, filled in by voices.ts. */
type Base = Pick<CatalogueVoice, 'model' | 'medianF0' | 'formantScale'>;

const FEMALE = { medianF0: 210, formantScale: 1.17 } as const;
const MALE = { medianF0: 110, formantScale: 1.0 } as const;

/**
 * AI4Bharat's VITS for 13 scheduled languages (ai4bharat/vits_rasa_13, trained on their Rasa data).
 * Licence: CC-BY-4.0, from the model card's metadata (huggingface.co/ai4bharat/vits_rasa_13,
 * README.md `license: cc-by-4.0`, languages as bn brx doi kn mai ml mr ne pa sa ta te). Files: the
 * sherpa-onnx export MatiasLin/sherpa-onnx-vits-rasa-13 (same licence on its card): `model.onnx`
 * (fp32, about 150 MB as its card says), `tokens.txt` (character front end, add_blank, 1,024
 * speaker slots, an extra `emotion_id` input). Speakers in the order of the model's speaker_names
 * (the card's example: 16 = Punjabi male). Its card lists sample_rate 22050 in the metadata while
 * the model's config.json says 24000: the voices say 24000 (`sampleRate`).
 */
const RASA_DOWNLOAD: Download = {
  weights: 'vits-rasa-13',
  repo: 'MatiasLin/sherpa-onnx-vits-rasa-13',
  revision: UNPINNED,
  files: [
    { path: 'model.onnx', bytes: 150_000_000 },
    { path: 'tokens.txt', bytes: 10_000 },
  ],
  bytes: 150_010_000,
};
const RASA_LICENSE = {
  license: 'CC-BY-4.0',
  attribution: 'Voice: AI4Bharat, IIT Madras — vits_rasa_13 (Rasa), CC BY 4.0.',
  commercial: true,
} as const;

interface RasaSpeaker {
  languageCode: string;
  language: string;
  gender: 'female' | 'male';
  sampleText: string;
}

const SAMPLES: Record<string, [string, string]> = {
  as: ['Assamese', 'নমস্কাৰ, আপুনি কেনে আছে?'],
  bn: ['Bengali', 'নমস্কার, আপনি কেমন আছেন?'],
  brx: ['Bodo', 'खुलुमबाय, नों माबोरै दं?'],
  doi: ['Dogri', 'नमस्ते, तुस केह् हाल ओ?'],
  kn: ['Kannada', 'ನಮಸ್ಕಾರ, ನೀವು ಹೇಗಿದ್ದೀರಿ?'],
  mai: ['Maithili', 'प्रणाम, अहाँ केहन छी?'],
  ml: ['Malayalam', 'നമസ്കാരം, സുഖമാണോ?'],
  mr: ['Marathi', 'नमस्कार, तुम्ही कसे आहात?'],
  ne: ['Nepali', 'नमस्ते, तपाईंलाई कस्तो छ?'],
  pa: ['Punjabi', 'ਸਤ ਸ੍ਰੀ ਅਕਾਲ, ਤੁਸੀਂ ਕਿਵੇਂ ਹੋ?'],
  sa: ['Sanskrit', 'नमस्ते, भवान् कथम् अस्ति?'],
  ta: ['Tamil', 'வணக்கம், நீங்கள் எப்படி இருக்கிறீர்கள்?'],
  te: ['Telugu', 'నమస్కారం, మీరు ఎలా ఉన్నారు?'],
};

/** speaker_names of vits_rasa_13, in sid order. */
const RASA_SPEAKERS: [string, 'female' | 'male'][] = [
  ['as', 'female'],
  ['as', 'male'],
  ['bn', 'female'],
  ['bn', 'male'],
  ['brx', 'female'],
  ['brx', 'male'],
  ['doi', 'female'],
  ['doi', 'male'],
  ['kn', 'female'],
  ['kn', 'male'],
  ['mai', 'male'],
  ['ml', 'female'],
  ['mr', 'female'],
  ['mr', 'male'],
  ['ne', 'female'],
  ['pa', 'female'],
  ['pa', 'male'],
  ['sa', 'male'],
  ['ta', 'female'],
  ['te', 'female'],
];

const rasaSpeaker = ([code, gender]: [string, 'female' | 'male']): RasaSpeaker => ({
  languageCode: `${code}-IN`,
  language: SAMPLES[code]![0],
  gender,
  sampleText: SAMPLES[code]![1],
});

/** The Rasa voices: `{languageCode}-rasa-{female|male}`, e.g. `ta-IN-rasa-female`. */
export const rasaVoices = (base: Pick<Base, 'model'>): CatalogueVoice[] =>
  RASA_SPEAKERS.map((entry, sid) => {
    const speaker = rasaSpeaker(entry);
    return {
      id: `${speaker.languageCode}-rasa-${speaker.gender}`,
      name: `${speaker.language} ${speaker.gender} (AI4Bharat Rasa, VITS neural)`,
      language: speaker.language,
      languageCode: speaker.languageCode,
      gender: speaker.gender,
      ...base,
      ...(speaker.gender === 'female' ? FEMALE : MALE),
      ...RASA_LICENSE,
      spec: { engine: 'sherpa-vits', speaker: sid, emotion: 0, sampleRate: 24_000, download: RASA_DOWNLOAD },
      sampleText: speaker.sampleText,
    };
  });

/**
 * Piper's Telugu voice te_IN-padmavathi-medium (rhasspy/piper-voices, 63,516,050 bytes; eSpeak `te`
 * phonemes, 22,050 Hz). Its licence could not be read here (no hub; the repository's MIT covers
 * the code, each voice's MODEL_CARD its data), so it is listed as NOASSERTION and not commercial
 * until checked: it is spoken only when named.
 */
export const piperTeluguVoice = (base: Pick<Base, 'model'>): CatalogueVoice => ({
  id: 'te-IN-piper-padmavathi',
  name: 'Padmavathi (Telugu, Piper neural)',
  language: 'Telugu',
  languageCode: 'te-IN',
  gender: 'female',
  ...base,
  ...FEMALE,
  license: 'NOASSERTION',
  attribution:
    'Voice: Piper te_IN-padmavathi-medium (rhasspy/piper-voices); see its MODEL_CARD for the dataset and licence.',
  commercial: false,
  spec: {
    engine: 'piper',
    file: 'te/te_IN/padmavathi/medium/te_IN-padmavathi-medium.onnx',
    download: {
      weights: 'piper-te-padmavathi',
      repo: 'rhasspy/piper-voices',
      revision: UNPINNED,
      files: [
        { path: 'te/te_IN/padmavathi/medium/te_IN-padmavathi-medium.onnx', bytes: 63_516_050 },
        { path: 'te/te_IN/padmavathi/medium/te_IN-padmavathi-medium.onnx.json', bytes: 5_000 },
      ],
      bytes: 63_521_050,
    },
  },
  sampleText: SAMPLES.te![1],
});
