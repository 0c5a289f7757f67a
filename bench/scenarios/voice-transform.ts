import createRnnoise from '@jitsi/rnnoise-wasm/dist/rnnoise-sync.js';
import Sonic from '@echogarden/sonic-wasm';
import { encodeWav } from '../../src/common/audio/encode/wav';
import { decodeMono } from '../../src/common/audio/mono';
import { createVaani } from '../../src/index';
import { quantile, timePaired } from '../support/stats';
import type { Scenario } from '../types';

const RUNS = 5;
const FRAME = 480;

/** The bare baseline for isolation: RNNoise's frame loop over 48 kHz samples, straight on the WASM module. */
async function bareRnnoise(): Promise<(samples: Float32Array) => Float32Array> {
  const m = await createRnnoise().ready;
  return (samples) => {
    const state = m._rnnoise_create(0);
    const input = m._malloc(FRAME * 4);
    const output = m._malloc(FRAME * 4);
    const out = new Float32Array(samples.length);
    for (let start = 0; start + FRAME <= samples.length; start += FRAME) {
      for (let i = 0; i < FRAME; i++) m.HEAPF32[(input >> 2) + i] = samples[start + i]! * 32768;
      m._rnnoise_process_frame(state, output, input);
      for (let i = 0; i < FRAME; i++) out[start + i] = m.HEAPF32[(output >> 2) + i]! / 32768;
    }
    m._rnnoise_destroy(state);
    m._free(input);
    m._free(output);
    return out;
  };
}

/** The bare baseline for the voice changer: one Sonic stream changing the speed of the whole clip. */
async function bareSonic(): Promise<(samples: Float32Array, sampleRate: number, speed: number) => number> {
  const m = await Sonic();
  return (samples, sampleRate, speed) => {
    const stream = m._sonicCreateStream(sampleRate, 1);
    m._sonicSetSpeed(stream, speed);
    const input = m._malloc(samples.length * 4);
    const output = m._malloc(8192 * 4);
    m.HEAPF32.set(samples, input >> 2);
    m._sonicWriteFloatToStream(stream, input, samples.length);
    m._sonicFlushStream(stream);
    let total = 0;
    for (let got = 1; got > 0;) total += got = m._sonicReadFloatFromStream(stream, output, 8192);
    m._sonicDestroyStream(stream);
    m._free(input);
    m._free(output);
    return total;
  };
}

/**
 * Audio transforms in the DSP worker against bare WASM loops in the page, on jfk.flac (11 s).
 * Isolation gets a 48 kHz mono WAV, RNNoise's own rate, so both sides denoise the same samples
 * (the route adds decoding, delay compensation, the worker hop and WAV encoding). The voice
 * changer (to a female voice: F0 track, formant warp, tape playback, Sonic stretch) is compared
 * with one bare Sonic speed change of the same clip.
 */
const voiceTransform: Scenario = async (env) => {
  const flac = new Uint8Array(await (await fetch(`${env.sharedURL}audio/jfk.flac`)).arrayBuffer());
  const at48k = await decodeMono(flac, 48000);
  const seconds = at48k.samples.length / 48000;
  const wav48k = new Blob([encodeWav(at48k)], { type: 'audio/wav' });
  const source = await decodeMono(flac);
  const vaani = createVaani({ auth: 'optional' });
  const post = async (path: string, file: Blob, fields: Record<string, string> = {}) => {
    const form = new FormData();
    form.append('file', file, 'audio');
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    const response = await vaani.fetch(path, { method: 'POST', body: form });
    const bytes = await response.arrayBuffer();
    if (!response.ok) throw new Error(new TextDecoder().decode(bytes));
  };

  const rnnoise = await bareRnnoise();
  env.log(`isolate: ${seconds.toFixed(1)} s at 48 kHz, ${RUNS} paired runs`);
  const isolate = await timePaired(
    RUNS,
    () => post('/v1/audio/isolate', wav48k),
    async () => rnnoise(at48k.samples),
  );
  const [isolateMs, bareIsolateMs] = [quantile(isolate.a, 0.5), quantile(isolate.b, 0.5)];

  const sonic = await bareSonic();
  const flacBlob = new Blob([flac], { type: 'audio/flac' });
  env.log(`voice changer: ${seconds.toFixed(1)} s of 44.1 kHz FLAC, ${RUNS} paired runs`);
  const change = await timePaired(
    RUNS,
    () => post('/v1/audio/voice-changer', flacBlob, { voice: 'hi-IN-female-1' }),
    async () => sonic(source.samples, source.sampleRate, 1.3),
  );
  const [changeMs, bareChangeMs] = [quantile(change.a, 0.5), quantile(change.b, 0.5)];
  vaani.dispose();

  return [
    {
      id: 'voice.isolate.realtime',
      metric:
        'POST /v1/audio/isolate (RNNoise in the DSP worker, 48 kHz WAV in): seconds of audio per second, median of 5',
      unit: '× real time',
      value: seconds / (isolateMs / 1000),
      baseline: {
        name: 'bare RNNoise frame loop on the same 48 kHz samples in the page',
        value: seconds / (bareIsolateMs / 1000),
      },
      higherIsBetter: true,
      notes: { audioSeconds: seconds, medianMs: isolateMs, bareMedianMs: bareIsolateMs },
    },
    {
      id: 'voice.changer.realtime',
      metric: 'POST /v1/audio/voice-changer (jfk.flac → hi-IN-female-1): seconds of audio per second, median of 5',
      unit: '× real time',
      value: seconds / (changeMs / 1000),
      baseline: {
        name: 'one bare Sonic speed change (×1.3) of the same clip in the page',
        value: seconds / (bareChangeMs / 1000),
      },
      higherIsBetter: true,
      notes: {
        audioSeconds: seconds,
        medianMs: changeMs,
        bareMedianMs: bareChangeMs,
        input: 'jfk.flac, 44.1 kHz stereo FLAC',
      },
    },
  ];
};

export default voiceTransform;
