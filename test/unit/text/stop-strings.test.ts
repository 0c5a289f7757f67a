import { describe, expect, it } from 'vitest';
import { StopStrings } from '../../../src/common/text/stop-strings';

const run = (stops: string[], pieces: string[]) => {
  const scan = new StopStrings(stops);
  const out: string[] = [];
  for (const piece of pieces) {
    const result = scan.push(piece);
    out.push(result.text);
    if (result.stopped) return { out, stopped: true };
  }
  out.push(scan.flush());
  return { out, stopped: false };
};

describe('StopStrings', () => {
  it('cuts at a stop string split over pieces and never emits it', () => {
    const { out, stopped } = run(['END'], ['Hello E', 'N', 'D more']);
    expect(stopped).toBe(true);
    expect(out.join('')).toBe('Hello ');
    expect(out).toEqual(['Hello ', '', '']);
  });

  it('releases a held-back partial match once it cannot be a stop string', () => {
    const { out, stopped } = run(['END'], ['Hello E', 'x']);
    expect(stopped).toBe(false);
    expect(out).toEqual(['Hello ', 'Ex', '']);
  });

  it('stops at the earliest of several stop strings', () => {
    expect(run(['b', 'a'], ['xxab']).out.join('')).toBe('xx');
  });

  it('gives held text back at the end', () => {
    expect(run(['</s>'], ['done </']).out).toEqual(['done ', '</']);
  });

  it('passes everything through with no stop strings', () => {
    expect(run([], ['a', 'b']).out).toEqual(['a', 'b', '']);
  });
});
