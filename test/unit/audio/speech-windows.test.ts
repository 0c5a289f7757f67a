import { describe, expect, it } from 'vitest';
import { speechWindows } from '../../../src/common/audio/speech-windows';

const options = { frame: 512, sampleRate: 16000, maxSeconds: 15 };
const FRAME_S = 512 / 16000;
/** Probabilities at 32 ms a frame: `spans` of speech (seconds) over `seconds` of audio. */
function probabilities(seconds: number, spans: [number, number][], low = 0.02): Float32Array {
  return Float32Array.from({ length: Math.floor(seconds / FRAME_S) }, (_, i) =>
    spans.some(([a, b]) => i * FRAME_S >= a && i * FRAME_S < b) ? 0.9 : low,
  );
}

describe('speechWindows', () => {
  it('no speech, no windows', () => {
    expect(speechWindows(probabilities(5, []), 80000, options)).toEqual([]);
  });

  it('regions padded by 0.2 s, split at pauses of 0.3 s or more, grouped into one window while it fits', () => {
    const windows = speechWindows(
      probabilities(10, [
        [1, 3],
        [3.1, 4],
        [6, 8],
      ]),
      160000,
      options,
    );
    expect(windows).toHaveLength(1);
    const [window] = windows;
    expect(window!.regions.map((r) => [r.start / 16000, r.end / 16000])).toEqual([
      [expect.closeTo(0.8, 1), expect.closeTo(4.2, 1)],
      [expect.closeTo(5.8, 1), expect.closeTo(8.2, 1)],
    ]);
    expect(window!.start).toBe(window!.regions[0]!.start);
    expect(window!.end).toBe(window!.regions[1]!.end);
  });

  it('no window is longer than 15 s: groups break between regions, long speech is cut at its quietest frame', () => {
    const total = 60 * 16000;
    const speech = probabilities(60, [
      [0, 12],
      [13, 20],
      [21, 50],
    ]);
    const dip = Math.floor(30 / FRAME_S);
    speech[dip] = 0.4; // still speech (above 0.35), but the least speech-like frame of that stretch
    const windows = speechWindows(speech, total, options);
    for (const window of windows) expect(window.end - window.start).toBeLessThanOrEqual(15 * 16000);
    for (let i = 1; i < windows.length; i++) expect(windows[i]!.start).toBeGreaterThanOrEqual(windows[i - 1]!.end);
    expect(windows.some((w) => w.end === dip * 512 || w.start === dip * 512)).toBe(true);
    const covered = windows.flatMap((w) => w.regions).reduce((sum, r) => sum + r.end - r.start, 0);
    expect(covered / 16000).toBeGreaterThan(48);
  });
});
