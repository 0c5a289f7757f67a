import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SpeechTracker, type SpeechEvents, type VadOptions } from '../../../src/page/recorder/vad';
import { VAD_FRAME } from '../../../src/common/audio/vad-frame';
import type { VadWorker } from '../../../src/protocol/vad';

/** 32 ms frames: speech, then silence, as Silero's probabilities. */
const SPEECH = 0.9;
const QUIET = 0.05;

/**
 * A tracker whose Silero answers from `script`, one probability per frame in order, and a log of
 * its events (positions in frames).
 */
function tracker(options: VadOptions, script: number[]) {
  let next = 0;
  const api: VadWorker = {
    reset: async () => undefined,
    probabilities: async (samples) => {
      const frames = samples.length / VAD_FRAME;
      next += frames;
      return Float32Array.from(script.slice(next - frames, next));
    },
  };
  const host = { run: <R>(job: (worker: VadWorker) => Promise<R>) => job(api), dispose: () => undefined };
  const log: (string | number)[][] = [];
  const pauses: ((afterMs?: number) => Promise<boolean>)[] = [];
  const events: SpeechEvents = {
    speechStart: (sample) => log.push(['start', sample / VAD_FRAME]),
    speechEnd: (sample) => log.push(['end', sample / VAD_FRAME]),
    pause: (speechEnd, sample, end) => {
      log.push(['pause', speechEnd / VAD_FRAME, sample / VAD_FRAME]);
      pauses.push(end);
    },
    silence: (sample) => log.push(['silence', sample / VAD_FRAME]),
    error: (error) => log.push(['error', error.message]),
  };
  const vad = new SpeechTracker(options, events, host as never);
  /** Feeds `frames` frames and waits until they are judged. */
  const feed = async (frames: number) => {
    vad.push(new Float32Array(frames * VAD_FRAME));
    await vad.span();
  };
  return { vad, log, pauses, feed };
}

const frames = (count: number, p: number) => Array<number>(count).fill(p);

describe('SpeechTracker endpointing', () => {
  beforeEach(() => vi.stubGlobal('location', { href: 'http://localhost/' }));
  afterEach(() => vi.unstubAllGlobals());

  it('a pause of pauseMs offers to end the speech there; ended, the rest of the audio is not judged', async () => {
    const { log, pauses, feed } = tracker({ silenceMs: 1200, pauseMs: 300 }, [
      ...frames(10, SPEECH),
      ...frames(60, QUIET),
    ]);
    await feed(25);
    // Speech is frames 0–9; 300 ms is 9.4 frames, so the pause is decided at frame 19 (its end: 20).
    expect(log).toEqual([
      ['start', 0],
      ['pause', 9, 20],
    ]);
    expect(await pauses[0]!()).toBe(true);
    // Ended where the frames judged so far end, not 1200 ms later.
    expect(log.slice(2)).toEqual([
      ['end', 9],
      ['silence', 25],
    ]);
    await feed(45);
    expect(log).toHaveLength(4);
    expect(await pauses[0]!()).toBe(false);
  });

  it('speech heard after the pause keeps the recording going: the next pause, else the full silence, ends it', async () => {
    const { log, pauses, feed } = tracker({ silenceMs: 1200, pauseMs: 300 }, [
      ...frames(10, SPEECH),
      ...frames(12, QUIET),
      ...frames(5, SPEECH),
      ...frames(50, QUIET),
    ]);
    await feed(27);
    expect(log).toEqual([
      ['start', 0],
      ['pause', 9, 20],
    ]);
    // The speaker went on before the transcript came: the first pause can no longer end the speech.
    expect(await pauses[0]!()).toBe(false);
    await feed(50);
    // A second pause for the new speech (frames 22–26), then the full silence (38 frames) ends it.
    expect(log.slice(2)).toEqual([
      ['pause', 26, 37],
      ['end', 26],
      ['silence', 65],
    ]);
    expect(await pauses[1]!()).toBe(false);
  });

  it('end(afterMs) at an earlier pause waits for that silence on the sample clock, unless speech comes back', async () => {
    const { log, pauses, feed } = tracker({ silenceMs: 1200, pauseMs: 150 }, [
      ...frames(10, SPEECH),
      ...frames(6, QUIET),
      ...frames(4, SPEECH),
      ...frames(40, QUIET),
    ]);
    // 150 ms is 4.7 frames: the pause after frame 9 is decided at frame 14.
    await feed(15);
    expect(log.slice(1)).toEqual([['pause', 9, 15]]);
    const first = pauses[0]!(300);
    await feed(10);
    // Speech came back at frame 16, before 300 ms of silence: that end is refused. Its pause came at frame 24.
    expect(await first).toBe(false);
    expect(log.slice(2)).toEqual([['pause', 19, 25]]);
    const second = pauses[1]!(300);
    await feed(3);
    expect(log).toHaveLength(3);
    await feed(32);
    // 300 ms after frame 19 is frame 29: ended there, not at the full silence.
    expect(await second).toBe(true);
    expect(log.slice(3)).toEqual([
      ['end', 19],
      ['silence', 30],
    ]);
  });

  it('without pauseMs there is no pause: only silenceMs ends the speech', async () => {
    const { log, feed } = tracker({ silenceMs: 1200 }, [...frames(10, SPEECH), ...frames(60, QUIET)]);
    await feed(70);
    expect(log).toEqual([
      ['start', 0],
      ['end', 9],
      ['silence', 48],
    ]);
  });
});
