import { describe, expect, it } from 'vitest';
import { lastCodeBlock, modeMessages } from '../../../../src/page/services/code/prompts';

describe('code modes', () => {
  it('fences the code with its language under a task for the mode', () => {
    const [system, user] = modeMessages('debug', 'print(x', 'python');
    expect(system!.content).toMatch(/^You are an expert python programmer\. Find the bugs/);
    expect(user).toEqual({ role: 'user', content: '```python\nprint(x\n```' });
    expect(modeMessages('explain', 'x')[0]!.content).toMatch(/^You are an expert programmer\. Explain/);
  });

  it('finds the last fenced block of an answer, or null', () => {
    const answer = 'Bug: a paren.\n```py\nprint(x\n```\nFixed:\n```python\nprint(x)\n```\n';
    expect(lastCodeBlock(answer)).toEqual({ language: 'python', text: 'print(x)' });
    expect(lastCodeBlock('no code here')).toBeNull();
  });
});
