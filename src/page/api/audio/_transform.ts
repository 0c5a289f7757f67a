import type { TransformParams, TransformEngine } from '../../../protocol/transform';
import type { AudioResult } from '../../../protocol/speech';
import { readForm, parse } from '../http/body';
import { dispatchTo, type Services } from '../http/dispatch';
import { badRequest } from '../http/errors';
import { requireModel } from '../http/models-check';
import { resolveVoice } from '../../../catalogue/voice-aliases';
import { transformSchema } from './_schema';
import { requireVoice } from './_voice';
import { wavResponse } from './_wav';

type Operation = 'isolate' | 'changeVoice' | 'speechToSpeech';

/** POST /audio/isolate, /audio/voice-changer and /audio/speech-to-speech: audio in, WAV out. */
export const transform =
  (operation: Operation) =>
  async (ctx: Services, request: Request, path: string): Promise<Response> => {
    const { value, raw } = await readForm(request);
    const form = parse(transformSchema, value);
    requireModel(form.model, 'voice');
    if (operation !== 'isolate' && !form.voice)
      throw badRequest("Missing required parameter: 'voice'.", 'voice', 'missing_required_parameter');
    // OpenAI's voice names (alloy …) name local voices here as on /audio/speech.
    const params: TransformParams = { ...form, voice: form.voice && resolveVoice(form.voice), audio: form.file };
    return dispatchTo(ctx, { request, path, raw }, { model: form.model, kind: 'transform' }, async (engine) =>
      wavResponse(await run(engine, operation, params, request.signal)),
    );
  };

function run(
  engine: TransformEngine,
  operation: Operation,
  params: TransformParams,
  signal: AbortSignal,
): Promise<AudioResult> {
  if (params.voice) requireVoice(engine, params.voice);
  return engine[operation](params, signal);
}
