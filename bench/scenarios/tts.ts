import { createVaani } from '../../src/index';
import { findVoice } from '../../src/catalogue/voices';
import { speakingRate } from '../../src/worker/speech/prosody';
import { quantile, timePaired } from '../support/stats';
import type { Scenario } from '../types';

/** The eSpeak plug-in's folder as the bench server serves it. */
const ESPEAK_BASE = '/node_modules/@echogarden/espeak-ng-emscripten/';
const RUNS = 9;

interface BareEspeak {
  eSpeakNGWorker: new () => {
    set_voice(name: string): number;
    set_rate(rate: number): void;
    synthesize(text: string, onAudio: (samples: Int16Array) => boolean): void;
    readonly samplerate: number;
  };
}

/**
 * TTS throughput: POST /v1/audio/speech (route, TTS worker, clause prosody, WAV) against a bare
 * eSpeak-NG loop in the page speaking the same text with the same voice and rate in one call.
 * Both make about 100 s of Hindi speech from 1,800 characters.
 */
const tts: Scenario = async (env) => {
  const voice = findVoice('hi-IN-female-1')!;
  if (voice.spec.engine !== 'espeak') throw new Error('expected an eSpeak voice');
  const espeakVoice = voice.spec.espeakVoice;
  const text = `${voice.sampleText} `.repeat(Math.ceil(1800 / (voice.sampleText.length + 1)));
  const vaani = createVaani({ auth: 'optional', models: { 'espeak-ng': { baseURL: ESPEAK_BASE } } });
  const body = JSON.stringify({ model: 'speech-tts-v1', voice: voice.id, input: text });

  let vaaniSeconds = 0;
  const viaVaani = async () => {
    const response = await vaani.fetch('/v1/audio/speech', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    const bytes = await response.arrayBuffer();
    if (!response.ok) throw new Error(new TextDecoder().decode(bytes));
    vaaniSeconds = (bytes.byteLength - 44) / 2 / new DataView(bytes).getUint32(24, true);
  };

  const module = (await import(/* @vite-ignore */ `${ESPEAK_BASE}espeak-ng.js`)) as {
    default: () => Promise<BareEspeak>;
  };
  const bare = new (await module.default()).eSpeakNGWorker();
  let bareSeconds = 0;
  const bareLoop = async () => {
    if (bare.set_voice(espeakVoice) !== 0) throw new Error(`eSpeak lacks ${espeakVoice}`);
    bare.set_rate(speakingRate(1));
    let samples = 0;
    bare.synthesize(text, (chunk) => ((samples += chunk.length), false));
    bareSeconds = samples / bare.samplerate;
  };

  env.log(`${text.length} characters, ${RUNS} paired runs`);
  const times = await timePaired(RUNS, viaVaani, bareLoop);
  vaani.dispose();
  const [ms, bareMs] = [quantile(times.a, 0.5), quantile(times.b, 0.5)];
  const notes = {
    characters: text.length,
    audioSeconds: vaaniSeconds,
    bareAudioSeconds: bareSeconds,
    medianMs: ms,
    bareMedianMs: bareMs,
    voice: voice.id,
  };
  return [
    {
      id: 'tts.espeak.chars_per_s',
      metric: 'POST /v1/audio/speech (eSpeak-NG, Hindi): characters per second, median of 9',
      unit: 'chars/s',
      value: text.length / (ms / 1000),
      baseline: {
        name: 'bare eSpeak-NG loop in the same page, one synthesize() call',
        value: text.length / (bareMs / 1000),
      },
      higherIsBetter: true,
      notes,
    },
    {
      id: 'tts.espeak.realtime',
      metric:
        'POST /v1/audio/speech (eSpeak-NG, Hindi): seconds of audio per second of synthesis (1 / real-time factor)',
      unit: '× real time',
      value: vaaniSeconds / (ms / 1000),
      baseline: {
        name: 'bare eSpeak-NG loop in the same page, one synthesize() call',
        value: bareSeconds / (bareMs / 1000),
      },
      higherIsBetter: true,
      notes,
    },
  ];
};

export default tts;
