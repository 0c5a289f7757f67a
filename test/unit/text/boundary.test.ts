import { describe, expect, it } from 'vitest';
import { BoundaryCut } from '../../../src/common/text/boundary';

/** Feeds the completion in pieces (as tokens arrive) and returns what stays. */
function cut(kind: 'line' | 'block', before: string, pieces: string[]) {
  const boundary = new BoundaryCut(kind, before);
  let text = '';
  for (const piece of pieces) {
    text += boundary.push(piece);
    if (boundary.stopped) break;
  }
  return { text: text + boundary.finish(), stopped: boundary.stopped };
}

describe('BoundaryCut', () => {
  it('line: stops at the first newline after some text, a leading newline kept', () => {
    expect(cut('line', 'x = ', ['foo(', '1)\n', 'y = 2'])).toEqual({ text: 'foo(1)', stopped: true });
    expect(cut('line', 'def f():', ['\n    ', 'return 1\n', 'x'])).toEqual({ text: '\n    return 1', stopped: true });
    expect(cut('line', '', ['abc'])).toEqual({ text: 'abc', stopped: false });
  });

  it('block: stops before the first dedented line, held indentation never shown', () => {
    const pieces = ['\n', '    ', 'a = 1\n', '    return a\n', '\n', 'def g', '():\n'];
    expect(cut('block', 'def f():', pieces)).toEqual({ text: '\n    a = 1\n    return a', stopped: true });
  });

  it('block: the cursor line sets the indentation when the completion writes on it; deeper lines stay', () => {
    const before = 'def f(xs):\n    for x in xs:';
    const pieces = ['\n        print(x)', '\n    return', ' xs\n', 'print(1)'];
    expect(cut('block', before, pieces)).toEqual({ text: '\n        print(x)', stopped: true });
    const inside = ['(x)', '\n        y = x', '\n    return y\n', 'z'];
    expect(cut('block', 'def f(x):\n    print', inside)).toEqual({
      text: '(x)\n        y = x\n    return y',
      stopped: true,
    });
  });

  it('block: stops at the second blank line in a row; trailing whitespace comes back at the end', () => {
    expect(cut('block', '', ['a\n', '\n', '\n', 'b'])).toEqual({ text: 'a', stopped: true });
    expect(cut('block', '', ['a\n  '])).toEqual({ text: 'a\n  ', stopped: false });
  });
});
