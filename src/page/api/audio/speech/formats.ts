import { TTS_MODEL } from '../../../../catalogue/voices';
import { SPEECH_FORMATS } from '../../../../protocol/speech';
import type { Services } from '../../http/dispatch';
import { ApiError } from '../../http/errors';

/**
 * GET /audio/speech/formats (extension): the `response_format`s /audio/speech can answer with here,
 * by the check the speech worker applies before encoding (WebCodecs, the bundled encoders and the
 * optional MP3 plug-in). Routed 'remote-only', OpenAI's whole list.
 */
export async function GET(ctx: Services, request: Request): Promise<Response> {
  if (ctx.routing(TTS_MODEL) === 'remote-only' && ctx.remote)
    return Response.json({ object: 'list', data: [...SPEECH_FORMATS] });
  const engine = ctx.registry.get('speech', TTS_MODEL);
  if (!engine) throw new ApiError(503, 'This build has no local speech engine to ask.', 'model_unavailable', 'model');
  return Response.json({ object: 'list', data: await engine.formats(request.signal) });
}
