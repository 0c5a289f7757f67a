/**
 * OpenAI's voice names as aliases of local voices (eSpeak-NG English voices: the only English voices
 * here; they need the eSpeak-NG plug-in). Female-sounding names take female voices, the others male,
 * spread over the US, British and Indian English voices.
 */
export const VOICE_ALIASES: Readonly<Record<string, string>> = {
  alloy: 'en-US-female-1',
  ash: 'en-US-male-1',
  ballad: 'en-GB-male-1',
  coral: 'en-IN-female-1',
  echo: 'en-IN-male-1',
  fable: 'en-GB-male-1',
  nova: 'en-US-female-1',
  onyx: 'en-US-male-1',
  sage: 'en-GB-female-1',
  shimmer: 'en-IN-female-1',
  verse: 'en-IN-male-1',
};

/** The local voice id a request's voice names. */
export const resolveVoice = (voice: string) => VOICE_ALIASES[voice] ?? voice;

/** The aliases that name a voice. */
export const voiceAliasesOf = (id: string) => Object.keys(VOICE_ALIASES).filter((alias) => VOICE_ALIASES[alias] === id);
