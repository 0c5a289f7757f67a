import { readFileSync } from 'node:fs';

/** The README's quick start: the shell lines and every file, as a web developer copies them. */
export interface QuickStart {
  shell: string[];
  files: Record<string, string>;
}

/**
 * Reads the quick start from the README itself (the section under "## Quick start (vite)"): the
 * `sh` block's lines, and each code block introduced by a line naming its file (`` `main.js`: ``).
 */
export function readQuickStart(readme: string): QuickStart {
  const text = readFileSync(readme, 'utf8');
  const start = text.indexOf('## Quick start (vite)');
  const section = text.slice(start, text.indexOf('\n### ', start));
  if (start < 0 || !section) throw new Error('The README has no "## Quick start (vite)" section.');
  const shell: string[] = [];
  const files: Record<string, string> = {};
  for (const match of section.matchAll(/(?:^`([^`]+)`:\s*\n\s*\n)?^```(\w+)\n([\s\S]*?)^```$/gm)) {
    const [, file, language, body] = match;
    if (file) files[file] = body!;
    else if (language === 'sh') shell.push(...body!.split('\n').filter((line) => line.trim()));
  }
  return { shell, files };
}
