import { MODELS } from '../../catalogue/families';
import { voiceAliasesOf } from '../../catalogue/voice-aliases';
import type { Services } from './http/dispatch';

/** GET /voices: the voices of the registered voice engines, and the voice models. */
export const GET = async (ctx: Services) => {
  const voices = ctx.registry
    .voices()
    .map(({ id, name, language, languageCode, gender, downloadBytes, weights, license, attribution, commercial }) => ({
      id,
      name,
      language,
      languageCode,
      gender,
      aliases: voiceAliasesOf(id),
      ...(downloadBytes ? { downloadBytes, weights } : {}),
      license,
      ...(attribution ? { attribution } : {}),
      commercial,
    }));
  const models = MODELS.filter((model) => model.product === 'voice' && ctx.registry.info(model.id)).map((model) => ({
    id: model.id,
    kind: model.route === '/audio/transcriptions' ? 'stt' : 'tts',
  }));
  return Response.json({ voices, models, licences: ctx.licences ?? 'commercial' });
};
