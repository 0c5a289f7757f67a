import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { Transcript, TranscriptionEngine } from '../../../../src/protocol/transcription';
import { invalidInput } from '../../../../src/protocol/errors';
import type { EngineFactory } from '../../../../src/page/engines/_registry';
import { BASE, service } from '../helpers';

const transcript = (text: string): Transcript => ({
  task: 'transcribe',
  language: 'english',
  duration: 2.4,
  text,
  segments: [],
});

/** A recogniser that reports its text in `steps` (as Whisper does after each window), or fails after `failAfter` of them. */
function engine(steps: string[], failAfter?: number): EngineFactory<'transcription'> {
  const recogniser: TranscriptionEngine = {
    async transcribe(params) {
      for (const [i, step] of steps.entries()) {
        if (i === failAfter) throw invalidInput('The audio could not be read.', 'file', 'invalid_audio');
        await new Promise((resolve) => setTimeout(resolve, 5));
        params.onText?.(step);
      }
      if (failAfter === steps.length) throw invalidInput('The audio could not be read.', 'file', 'invalid_audio');
      return transcript(steps.at(-1) ?? '');
    },
  };
  return {
    kind: 'transcription',
    models: ['speech-stt-v1'],
    info: () => ({ backends: ['wasm'] }),
    create: () => ({ ...recogniser, dispose() {} }),
  };
}

const file = () => new File([new Uint8Array(64)], 'a.wav', { type: 'audio/wav' });

describe('POST /audio/transcriptions with stream: true', () => {
  it('sends the growing text as transcript.text.delta events, then transcript.text.done, through the openai SDK', async () => {
    const ai = service({}, [engine(['Hello', 'Hello wor', 'Hello world.'])]);
    // Default retries.
    const client = new OpenAI({ baseURL: BASE, apiKey: 'k', fetch: ai.fetch });
    const stream = await client.audio.transcriptions.create({ model: 'whisper-1', file: file(), stream: true });
    const events = [];
    for await (const event of stream) events.push(event);
    expect(events).toEqual([
      { type: 'transcript.text.delta', delta: 'Hello' },
      { type: 'transcript.text.delta', delta: ' wor' },
      { type: 'transcript.text.delta', delta: 'ld.' },
      { type: 'transcript.text.done', text: 'Hello world.', usage: { type: 'duration', seconds: 3 } },
    ]);
  });

  it('a family that reports no partial text sends the whole text as one delta', async () => {
    const silent = service({}, [
      {
        ...engine([]),
        create: () => ({ transcribe: async () => transcript('नमस्ते दुनिया'), dispose() {} }),
      },
    ]);
    const client = new OpenAI({ baseURL: BASE, apiKey: 'k', fetch: silent.fetch, maxRetries: 0 });
    const stream = await client.audio.transcriptions.create({ model: 'speech-stt-v1', file: file(), stream: true });
    const events = [];
    for await (const event of stream) events.push(event.type === 'transcript.text.delta' ? event.delta : event.type);
    expect(events).toEqual(['नमस्ते दुनिया', 'transcript.text.done']);
  });

  it('a failure before any text is an error status; after some text, an error event the SDK raises; the next request works', async () => {
    const client = (steps: string[], failAfter: number) =>
      new OpenAI({ baseURL: BASE, apiKey: 'k', fetch: service({}, [engine(steps, failAfter)]).fetch, maxRetries: 0 });
    const before = await client(['Hello'], 0)
      .audio.transcriptions.create({ model: 'speech-stt-v1', file: file(), stream: true })
      .catch((e: unknown) => e);
    expect(before).toBeInstanceOf(OpenAI.BadRequestError);
    expect((before as InstanceType<typeof OpenAI.BadRequestError>).code).toBe('invalid_audio');
    const stream = await client(['Hello', 'Hello world'], 1).audio.transcriptions.create({
      model: 'speech-stt-v1',
      file: file(),
      stream: true,
    });
    const seen: string[] = [];
    const after = await (async () => {
      for await (const event of stream) seen.push(event.type);
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['transcript.text.delta']);
    expect(String(after)).toMatch(/could not be read/);
  });

  it('srt, vtt and verbose_json cannot be streamed: a 400 naming stream', async () => {
    const ai = service({}, [engine(['x'])]);
    for (const format of ['srt', 'vtt', 'verbose_json']) {
      const form = new FormData();
      form.set('file', file());
      form.set('model', 'speech-stt-v1');
      form.set('stream', 'true');
      form.set('response_format', format);
      const res = await ai.fetch(`${BASE}/audio/transcriptions`, {
        method: 'POST',
        headers: { authorization: 'Bearer k' },
        body: form,
      });
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatchObject({ param: 'stream', code: 'invalid_value' });
    }
  });
});
