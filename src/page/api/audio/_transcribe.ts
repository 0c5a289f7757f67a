import type { Transcript, TranscriptionParams } from '../../../protocol/transcription';
import { badRequest } from '../http/errors';
import { streamTranscript } from './_transcript-stream';
import { readForm, parse } from '../http/body';
import { dispatchTo, type Services } from '../http/dispatch';
import { requireRouteModel } from '../http/models-check';
import { transcriptionSchema } from './_schema';
import { subtitles } from './_subtitles';

/** POST /audio/transcriptions and /audio/translations (task by route). */
export const transcribe =
  (task: Transcript['task']) =>
  async (ctx: Services, request: Request, path: string): Promise<Response> => {
    const { value, raw } = await readForm(request);
    const form = parse(transcriptionSchema, value);
    const model = requireRouteModel(form.model, '/audio/transcriptions');
    const format = form.response_format;
    if (form.stream && format !== 'json' && format !== 'text')
      throw badRequest(
        `stream: true answers text events; response_format '${format}' cannot be streamed (use 'json' or 'text').`,
        'stream',
        'invalid_value',
      );
    return dispatchTo(
      ctx,
      { request, path, raw },
      { model: model.id, kind: 'transcription', streaming: form.stream === true },
      async (engine) => {
        const params: TranscriptionParams = {
          model: model.id,
          audio: form.file,
          task,
          language: form.language,
          prompt: form.prompt,
          temperature: form.temperature,
          timestamps: format === 'verbose_json' || format === 'srt' || format === 'vtt',
          words: format === 'verbose_json' && form.timestamp_granularities.includes('word'),
          engine: form.engine,
          decoding: form.decoding,
          chunking: form.chunking_strategy && {
            threshold: form.chunking_strategy.threshold,
            paddingMs: form.chunking_strategy.prefix_padding_ms,
            silenceMs: form.chunking_strategy.silence_duration_ms,
          },
          guards: {
            temperatureIncrement: form.temperature_increment_on_fallback,
            compressionRatioThreshold: form.compression_ratio_threshold,
            logprobThreshold: form.logprob_threshold,
            noSpeechThreshold: form.no_speech_threshold,
            conditionOnPreviousText: form.condition_on_previous_text,
          },
        };
        if (form.stream) return streamTranscript(engine, params, request.signal);
        return render(await engine.transcribe(params, request.signal), format);
      },
    );
  };

function render(transcript: Transcript, format: string): Response {
  switch (format) {
    case 'text':
      return new Response(transcript.text, { headers: { 'content-type': 'text/plain; charset=utf-8' } });
    case 'srt':
    case 'vtt':
      return new Response(subtitles(transcript.segments, format), {
        headers: { 'content-type': format === 'srt' ? 'application/x-subrip' : 'text/vtt' },
      });
    case 'verbose_json':
      return Response.json(transcript);
    default:
      return Response.json({ text: transcript.text });
  }
}
