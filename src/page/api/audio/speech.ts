import { readJson, parse } from '../http/body';
import { dispatchTo, type Services } from '../http/dispatch';
import { resolveVoice } from '../../../catalogue/voice-aliases';
import { requireRouteModel } from '../http/models-check';
import { speechSchema } from './_schema';
import { audioBody } from './_wav';
import { requireVoice } from './_voice';

/** POST /audio/speech */
export async function POST(ctx: Services, request: Request, path: string): Promise<Response> {
  const { value, raw } = await readJson(request);
  const asked = parse(speechSchema, value);
  const model = requireRouteModel(asked.model, '/audio/speech');
  const body = { ...asked, model: model.id, voice: resolveVoice(asked.voice) };
  return dispatchTo(ctx, { request, path, raw }, { model: model.id, kind: 'speech' }, async (engine) => {
    requireVoice(engine, body.voice, asked.voice);
    const audio = await engine.speak(body, request.signal);
    return new Response(audioBody(audio.chunks), {
      headers: { 'content-type': audio.contentType, 'x-vaani-sample-rate': String(audio.sampleRate) },
    });
  });
}
