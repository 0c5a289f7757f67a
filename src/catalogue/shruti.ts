/**
 * Shruti (Udgam Labs): one ~56M-parameter speech-recognition model per Indian language, each
 * hearing that language, English and the two mixed, built on Cactus Whistle (Apache-2.0). Vaani
 * loads the ONNX copies in sherpa-onnx's Moonshine layout (preprocess.onnx, encode.onnx,
 * uncached_decode.onnx, cached_decode.onnx, tokens.txt) from one folder per language of
 * `udgamlabs/Shruti-ONNX`.
 *
 * What was read, and where (the hub itself was not reachable where this was written):
 * - each language's own model card, huggingface.co/udgamlabs/shruti-<language> (and
 *   huggingface.co/udgamlabs/Shruti for Hindi): the language, "about 56M parameters" (55M for
 *   Hindi), the licence (apache-2.0 in the card's tags; "built on Cactus Whistle (Apache-2.0)") and
 *   its 29.7 MB `.cact` file (29.5 MB for Hindi) for the Cactus engine;
 * - the Shruti-ONNX card, as issue 34 quotes it: "55M parameters · 32 MB per language", 4-bit
 *   weights in standard ONNX operators, runs on onnxruntime-web, and "the same files work in
 *   sherpa-onnx … as a Moonshine model", in a folder per language such as `ur/sherpa-onnx/`.
 * Not confirmed: that every language below has a folder in Shruti-ONNX (the cards describe the
 * `.cact` files), the exact file names inside a folder (sherpa-onnx's names are assumed; the loader
 * also takes `*.int8.onnx`), each folder's size (32 MB is the card's one figure for all), and a
 * commit to pin (UNPINNED).
 */
import type { ModelSource } from '../protocol/options';
import { UNPINNED } from './families';

export const SHRUTI_REPO = 'udgamlabs/Shruti-ONNX';
export const SHRUTI_LICENSE = 'Apache-2.0';
/** The download per language (the four graphs and tokens.txt), as the Shruti-ONNX card states it. */
export const SHRUTI_BYTES = 32e6;
export const SHRUTI_PARAMETERS = 56e6;
/** The weights' dtype in the planner's words: 4-bit, as the Shruti-ONNX card states. */
export const SHRUTI_DTYPE = 'q4';

export interface ShrutiLanguage {
  code: string;
  name: string;
  /** The language's model card. */
  card: string;
  /** How the language is known to be in the family. */
  from: string;
}

const card = (slug: string) => `https://huggingface.co/udgamlabs/${slug}`;
const own = (slug: string) => ({ card: card(slug), from: `its model card, ${card(slug)}` });

/** The scheduled languages with a Shruti model, by code. */
export const SHRUTI_LANGUAGES: readonly ShrutiLanguage[] = [
  { code: 'hi', name: 'Hindi', ...own('Shruti') },
  { code: 'mr', name: 'Marathi', ...own('shruti-marathi') },
  { code: 'ta', name: 'Tamil', ...own('shruti-tamil') },
  { code: 'bn', name: 'Bengali', ...own('shruti-bengali') },
  { code: 'te', name: 'Telugu', ...own('shruti-telugu') },
  { code: 'gu', name: 'Gujarati', ...own('shruti-gujarati') },
  { code: 'or', name: 'Odia', ...own('shruti-odia') },
  {
    code: 'kn',
    name: 'Kannada',
    card: card('shruti-kannada'),
    from: 'named as a family member in the Urdu and Malayalam cards; its own card was not read',
  },
  { code: 'ur', name: 'Urdu', ...own('shruti-urdu') },
  { code: 'ml', name: 'Malayalam', ...own('shruti-malayalam') },
  { code: 'pa', name: 'Punjabi', ...own('shruti-punjabi') },
  { code: 'as', name: 'Assamese', ...own('shruti-assamese') },
  { code: 'sa', name: 'Sanskrit', ...own('shruti-sanskrit') },
  { code: 'sat', name: 'Santali', ...own('shruti-santali') },
  { code: 'doi', name: 'Dogri', ...own('shruti-dogri') },
  { code: 'mni', name: 'Manipuri', ...own('shruti-manipuri') },
];

export const SHRUTI_CODES: readonly string[] = SHRUTI_LANGUAGES.map(({ code }) => code);

/** The catalogue's source of a language's folder: `udgamlabs/Shruti-ONNX` at `<code>/sherpa-onnx/`. */
export const shrutiSource = (code: string): ModelSource & { folder: string } => ({
  repo: SHRUTI_REPO,
  revision: UNPINNED,
  folder: `${code}/sherpa-onnx/`,
});

/**
 * The compact per-language speech-recognition models, one entry per language: what each downloads,
 * its licence and where every figure comes from (exported as `SHRUTI_MODELS`; the demo lists them).
 */
export const SHRUTI_MODELS = SHRUTI_LANGUAGES.map((language) => ({
  language: language.code,
  name: `Shruti ${language.name}`,
  repo: SHRUTI_REPO,
  folder: `${language.code}/sherpa-onnx/`,
  bytes: SHRUTI_BYTES,
  parameters: SHRUTI_PARAMETERS,
  license: SHRUTI_LICENSE,
  commercial: true,
  languages: [language.code, 'en'],
  card: language.card,
  from: `${language.from}; size: the Shruti-ONNX card's "32 MB per language" (this folder's own size not confirmed)`,
}));
