import { createVaani } from '../../src/index';
import type { Recording, SpeechEventDetail } from '../../src/page/recorder/recorder';
import { use, type AssistantTurn, type VaaniVoiceAssistant } from '../../src/widgets/index';
import { endsSentence } from '../../src/widgets/sentences';
import type { Scenario } from '../types';

/** Measured rounds after a warm-up turn that loads the models. */
const ROUNDS = 3;
const VOICE = 'en-US-female-1';
const SILENCE_MS = 1200;
/** The element's default: the pause at which a transcript that ends a sentence ends the turn. */
const FINAL_SILENCE_MS = 300;

/** Resolves once the element's state is `listening` (its microphone open, the models loaded). */
const listening = (element: HTMLElement) =>
  new Promise<void>((resolve) => {
    const check = () => (element.getAttribute('state') === 'listening' ? resolve() : setTimeout(check, 20));
    check();
  });

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * The voice assistant's latency from the end of the user's speech to the first audio of its answer:
 * `<vaani-voice-assistant>` (hands-free, VAD with a 1.2 s silence or a 300 ms pause whose transcript ends
 * a sentence, streamed chat, sentence-by-sentence speech) hears a recorded question through a MediaStream; the end of speech is read on the recording's own
 * clock, as the element reports it. Baseline: the same turn without streaming (VAD recording → whole transcription → whole
 * chat answer → speech of the whole answer → playback), through the same routes.
 */
const assistant: Scenario = async (env) => {
  const models = (await (await fetch('/test/.fixtures/bench-assistant.json')).json()) as {
    whisper: string;
    scripted: string;
  };
  const ai = createVaani({
    backend: 'wasm',
    models: {
      'chat-v2': { baseURL: models.scripted },
      'speech-stt-v1': { baseURL: models.whisper, dtype: 'fp32' },
      'espeak-ng': { baseURL: '/node_modules/@echogarden/espeak-ng-emscripten/' },
    },
  });
  use(ai, { apiKey: 'bench' });
  const context = new AudioContext({ sampleRate: 48000 });
  await context.resume();
  const destination = context.createMediaStreamDestination();
  const clip = await context.decodeAudioData(
    await (await fetch(`${env.sharedURL}audio/common_voice_en_59751.mp3`)).arrayBuffer(),
  );
  /** Plays the clip into the stream the recorder hears. */
  const say = () => {
    const source = context.createBufferSource();
    source.buffer = clip;
    source.connect(destination);
    source.start();
  };

  const element = document.createElement('vaani-voice-assistant') as VaaniVoiceAssistant;
  const attributes = {
    voice: VOICE,
    language: 'en',
    'silence-ms': String(SILENCE_MS),
    'final-silence-ms': String(FINAL_SILENCE_MS),
  };
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.stream = destination.stream;
  document.body.append(element);
  const widgetTurn = async () => {
    element.messages = [];
    const done = new Promise<AssistantTurn>((resolve, reject) => {
      // A turn ended at a pause inside the question and talked over is not the answer: wait for the one answered.
      const answered = (event: Event) => {
        const turn = (event as CustomEvent<AssistantTurn>).detail;
        if (turn.interrupted) return;
        element.removeEventListener('vaani-result', answered);
        resolve(turn);
      };
      element.addEventListener('vaani-result', answered);
      element.addEventListener(
        'vaani-error',
        (event) => reject(new Error(JSON.stringify((event as CustomEvent).detail))),
        {
          once: true,
        },
      );
    });
    // Hands-free start() listens until end(): the turn begins once the element is listening.
    const session = element.start();
    await listening(element);
    await new Promise((resolve) => setTimeout(resolve, 300));
    say();
    const turn = await done;
    await element.end();
    await session;
    return { latency: turn.latency!, turn };
  };

  const headers = { authorization: 'Bearer bench' };
  const post = (path: string, body: BodyInit, json = true) =>
    ai.fetch(`${ai.baseURL}${path}`, {
      method: 'POST',
      headers: json ? { ...headers, 'content-type': 'application/json' } : headers,
      body,
    });
  /** The same turn without streaming: every stage waits for the whole result of the one before. */
  const sequentialTurn = async () => {
    const recorder = ai.recorder({ stream: destination.stream, vad: { silenceMs: SILENCE_MS } });
    const stopped = new Promise<Recording>((resolve) =>
      recorder.addEventListener('stop', (event) => resolve((event as CustomEvent<Recording>).detail), { once: true }),
    );
    let spoken: number | undefined;
    recorder.addEventListener('speechend', (event) => (spoken = (event as CustomEvent<SpeechEventDetail>).detail.at));
    await recorder.start();
    await new Promise((resolve) => setTimeout(resolve, 300));
    say();
    const recording = await stopped;
    // The end of speech on the recording's sample clock, as the element takes it.
    spoken ??= performance.now();
    const form = new FormData();
    form.set('file', recording.file);
    form.set('model', 'speech-stt-v1');
    form.set('language', 'en');
    const { text } = await (await post('/audio/transcriptions', form, false)).json();
    const chat = await (
      await post('/chat/completions', JSON.stringify({ model: 'chat-v2', messages: [{ role: 'user', content: text }] }))
    ).json();
    const answer = chat.choices[0].message.content as string;
    const wav = await (
      await post(
        '/audio/speech',
        JSON.stringify({ model: 'speech-tts-v1', voice: VOICE, input: answer.slice(0, 4096) }),
      )
    ).arrayBuffer();
    const buffer = await context.decodeAudioData(wav);
    const source = context.createBufferSource();
    source.buffer = buffer;
    source.connect(context.destination);
    source.start();
    const firstAudio = performance.now() + context.baseLatency * 1000;
    source.stop();
    return firstAudio - spoken;
  };

  await widgetTurn(); // loads every model (the sequential turn uses the same engines)
  /** The rounds of one way of ending the turn: latencies, what ended each, the last turn's stages. */
  const rounds = () => ({
    latency: [] as number[],
    ended: [] as string[],
    last: undefined as AssistantTurn | undefined,
  });
  const silence = rounds();
  const final = rounds();
  const sequential: number[] = [];
  const record = (into: ReturnType<typeof rounds>, { latency, turn }: Awaited<ReturnType<typeof widgetTurn>>) => {
    into.latency.push(latency);
    into.ended.push(turn.ended);
    into.last = turn;
  };
  for (let round = 0; round < ROUNDS; round++) {
    element.endsTurn = endsSentence;
    record(silence, await widgetTurn());
    // The tiny random Whisper's text ends no sentence: here every transcript taken at the pause counts
    // as final, as a real model's transcript of the whole question (ending in "?") would.
    element.endsTurn = () => true;
    record(final, await widgetTurn());
    sequential.push(await sequentialTurn());
  }
  const ms = (values: number[]) => values.map(Math.round).join(', ');
  env.log(
    `widget ${ms(silence.latency)} ms (${silence.ended.join(', ')}); transcript final ${ms(final.latency)} ms (${final.ended.join(', ')}); sequential ${ms(sequential)} ms`,
  );
  env.log(`heard ${JSON.stringify(silence.last?.heard)}`);
  element.remove();
  await context.close();
  ai.dispose();
  // Ended at the pause, the hangover holds the transcription begun there (then transcribeMs ≈ 0); at
  // the full silence the transcript begun at the pause is taken too.
  const stages = (last: AssistantTurn | undefined) =>
    last && {
      vadHangoverMs: Math.round(last.detected - last.speechEnd),
      transcribeMs: Math.round(last.transcribed - last.detected),
      firstTokenMs: Math.round(last.firstToken! - last.transcribed),
      firstAudioMs: Math.round(last.firstAudio! - last.firstToken!),
    };
  const baseline = {
    name: 'the same turn without streaming (whole transcription, whole answer, whole speech)',
    value: median(sequential),
  };
  const clock =
    "the recording's own: end of speech = VAD detection time − (recorded duration − speech end), as the element computes it";
  const fixtures = 'tiny Whisper and chat fixtures, eSpeak-NG voice';
  return [
    {
      id: 'assistant.end-of-speech-to-first-audio',
      metric: `<vaani-voice-assistant> end of speech → first audio (transcript ending no sentence: ${SILENCE_MS} ms silence; ${fixtures})`,
      unit: 'ms',
      value: median(silence.latency),
      baseline,
      higherIsBetter: false,
      notes: {
        rounds: ROUNDS,
        clock,
        endedBy: silence.ended,
        heard: silence.last?.heard,
        lastTurnStages: stages(silence.last),
      },
    },
    {
      id: 'assistant.end-of-speech-to-first-audio.final-transcript',
      metric: `<vaani-voice-assistant> end of speech → first audio (transcript final at the ${FINAL_SILENCE_MS} ms pause; ${fixtures})`,
      unit: 'ms',
      value: median(final.latency),
      baseline,
      higherIsBetter: false,
      notes: {
        rounds: ROUNDS,
        clock,
        endsTurn: "every transcript (the random fixture's text ends no sentence)",
        endedBy: final.ended,
        lastTurnStages: stages(final.last),
      },
    },
  ];
};

export default assistant;
