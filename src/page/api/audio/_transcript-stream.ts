import type { Transcript, TranscriptionEngine, TranscriptionParams } from '../../../protocol/transcription';
import { Channel } from '../../services/channel';
import { sseResponse } from '../http/sse';

/** The part of `next` after `sent`, when the text only grew. */
const growth = (sent: string, next: string) => (next.startsWith(sent) ? next.slice(sent.length) : '');

/**
 * `stream: true`: OpenAI's transcription events — `transcript.text.delta` as the engine's text grows
 * (Whisper: after each window), then `transcript.text.done` with the whole text and the audio's
 * duration as usage. The answer waits for the first text (or the end), so a failure before any
 * output is still an error status, or goes to the remote.
 */
export async function streamTranscript(
  engine: TranscriptionEngine,
  params: TranscriptionParams,
  signal: AbortSignal,
): Promise<Response> {
  const stop = new AbortController();
  signal.addEventListener('abort', () => stop.abort(signal.reason), { once: true });
  const texts = new Channel<string>();
  let firstText!: () => void;
  const started = new Promise<void>((resolve) => (firstText = resolve));
  const done: Promise<Transcript> = engine.transcribe(
    {
      ...params,
      onText: (soFar) => {
        texts.push(soFar);
        firstText();
      },
    },
    stop.signal,
  );
  done.then(
    () => texts.close(),
    (error: unknown) => texts.fail(error),
  );
  await Promise.race([started, done]);
  return sseResponse(signal, async (sink) => {
    sink.signal.addEventListener('abort', () => stop.abort(sink.signal.reason), { once: true });
    let sent = '';
    const send = (next: string) => {
      const delta = growth(sent, next);
      if (!delta) return;
      sink.send({ type: 'transcript.text.delta', delta });
      sent = next;
    };
    for await (const soFar of texts) send(soFar);
    const transcript = await done;
    send(transcript.text);
    sink.send({
      type: 'transcript.text.done',
      text: transcript.text,
      usage: { type: 'duration', seconds: Math.ceil(transcript.duration) },
    });
  });
}
