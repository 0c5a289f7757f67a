import { findModel } from '../../../catalogue/families';
import { findVoice } from '../../../catalogue/voices';
import { resolveVoice } from '../../../catalogue/voice-aliases';
import type { Services } from '../http/dispatch';
import { ApiError } from '../http/errors';
import { describe } from '../models';
import { builtinAvailability } from '../../builtin';
import { probeWebGpu } from '../../../common/backends/webgpu';

/** GET /models/{model} (an alias answers with the model it names) */
export async function GET(ctx: Services, request: Request, _path: string, { model: id }: Record<string, string>) {
  const model = findModel(id!);
  if (!model) throw new ApiError(404, `The model '${id}' does not exist.`, 'model_not_found', 'model');
  // `?language=hi`: speech recognition's plan for that language (IndicConformer's files where it is routed there).
  const language = new URL(request.url).searchParams.get('language') ?? undefined;
  if (language !== undefined && !/^[a-z]{2,3}$/.test(language))
    throw new ApiError(
      400,
      `language must be an ISO-639 code such as 'hi', not '${language}'.`,
      'invalid_value',
      'language',
    );
  // `?voice=`: a speech model's plan for that voice's weights.
  const voice = new URL(request.url).searchParams.get('voice') ?? undefined;
  if (voice !== undefined && !findVoice(resolveVoice(voice)))
    throw new ApiError(404, `The voice '${voice}' does not exist.`, 'voice_not_found', 'voice');
  const [builtin, , plan] = await Promise.all([
    builtinAvailability(),
    probeWebGpu(),
    ctx.plan?.(model.id, language || voice ? { language, voice } : undefined),
  ]);
  return Response.json({ ...describe(ctx, model, builtin), ...(plan ? { x_vaani: plan } : {}) });
}
