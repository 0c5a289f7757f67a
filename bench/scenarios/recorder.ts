import { createVaani } from '../../src/index';
import type { Scenario } from '../types';

const WINDOW_MS = 1500;
const ROUNDS = 6;

/** Iterations of a fixed main-thread workload completed in one window (yielding every 5 ms). */
async function workRate(): Promise<number> {
  let iterations = 0;
  let sink = 0;
  const end = performance.now() + WINDOW_MS;
  while (performance.now() < end) {
    const slice = performance.now() + 5;
    while (performance.now() < slice) {
      for (let i = 0; i < 1000; i++) sink += Math.sqrt(i + iterations);
      iterations++;
    }
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return sink > 0 ? (iterations * 1000) / WINDOW_MS : 0;
}

/**
 * Recorder CPU overhead: how much main-thread work a page still gets done while ai.recorder()
 * captures a 440 Hz tone (AudioWorklet at 16 kHz, level events, WAV blocks), against the same
 * page not recording. Rounds alternate so machine drift hits both alike.
 */
const recorder: Scenario = async (env) => {
  const ai = createVaani();
  const source = new AudioContext();
  const tone = source.createOscillator();
  const destination = source.createMediaStreamDestination();
  tone.connect(destination);
  tone.start();
  const idle: number[] = [];
  const recording: number[] = [];
  let seconds = 0;
  for (let round = 0; round < ROUNDS; round++) {
    idle.push(await workRate());
    const rec = ai.recorder({ stream: destination.stream });
    await rec.start();
    recording.push(await workRate());
    seconds += (await rec.stop()).duration;
  }
  tone.stop();
  await source.close();
  ai.dispose();
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  env.log(`recorded ${seconds.toFixed(1)} s in total`);
  return [
    {
      id: 'recorder.main-thread-work',
      metric: 'main-thread work rate while recording (16 kHz AudioWorklet, level events)',
      unit: 'iterations/s',
      value: median(recording),
      baseline: { name: 'the same page not recording', value: median(idle) },
      higherIsBetter: true,
      notes: { recordedSeconds: seconds },
    },
  ];
};

export default recorder;
