import type { ChatMessage } from '../../../protocol/chat';

export type CodeMode = 'complete' | 'explain' | 'debug' | 'optimise';
export const CODE_MODES: readonly CodeMode[] = ['complete', 'explain', 'debug', 'optimise'];

const TASKS: Record<Exclude<CodeMode, 'complete'>, string> = {
  explain: 'Explain what the code does, step by step, in plain words. Be concise; do not rewrite it.',
  debug:
    'Find the bugs in the code. Say briefly what is wrong and why, then give the whole corrected code in one fenced code block.',
  optimise:
    'Make the code faster or simpler without changing what it does. Say briefly what you changed and why, then give the whole improved code in one fenced code block.',
};

/** The instruct model's conversation for explain, debug and optimise: the task, then the code fenced. */
export function modeMessages(mode: Exclude<CodeMode, 'complete'>, code: string, language = ''): ChatMessage[] {
  const lang = language ? ` ${language}` : '';
  return [
    { role: 'system', content: `You are an expert${lang} programmer. ${TASKS[mode]}` },
    { role: 'user', content: `\`\`\`${language}\n${code}\n\`\`\`` },
  ];
}

/** The last fenced code block of an answer (what a client applies for debug and optimise), or null. */
export function lastCodeBlock(text: string): { language: string; text: string } | null {
  const blocks = [...text.matchAll(/```([^\n`]*)\n([\s\S]*?)```/g)];
  const last = blocks.at(-1);
  return last ? { language: last[1]!.trim(), text: last[2]!.replace(/\n$/, '') } : null;
}
