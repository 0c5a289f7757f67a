import { readFileSync } from 'node:fs';

/** The README's quick start: the shell lines and every file, as a web developer copies them. */
export interface QuickStart {
  shell: string[];
  files: Record<string, string>;
}

/** The text of the README section under `heading`, up to the next heading of any level. */
function section(text: string, heading: string): string {
  const start = text.indexOf(`${heading}\n`);
  if (start < 0) throw new Error(`The README has no "${heading}" section.`);
  const next = text.slice(start + heading.length).search(/\n#{2,3} /);
  return text.slice(start, next < 0 ? undefined : start + heading.length + next);
}

/**
 * The README's "Before vaani is on npm": the commands a clone makes the tarball with, and the
 * install line that takes the place of `npm install vaani vite`.
 */
export function readTarballInstall(readme: string): { make: string[]; install: string } {
  const part = section(readFileSync(readme, 'utf8'), '### Before vaani is on npm');
  const make = [...part.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].flatMap(([, body]) =>
    body!.split('\n').filter((line) => line.trim()),
  );
  const install = /`(npm install \S+\.tgz vite)`/.exec(part)?.[1];
  if (!install) throw new Error('The README names no tarball to install before vaani is on npm.');
  return { make, install };
}

/**
 * Reads the quick start from the README itself (the sections "## Quick start (vite)" and "### Script
 * tag"): the `sh` block's lines, and each code block whose file a line names (`` `main.js`: ``, or a
 * sentence ending in `` `public/script.html`: ``).
 */
export function readQuickStart(readme: string): QuickStart {
  const text = readFileSync(readme, 'utf8');
  const shell: string[] = [];
  const files: Record<string, string> = {};
  for (const part of [section(text, '## Quick start (vite)'), section(text, '### Script tag')])
    for (const match of part.matchAll(/(?:`([^`\s]+)`:\s*\n\s*\n)?^```(\w+)\n([\s\S]*?)^```$/gm)) {
      const [, file, language, body] = match;
      if (file) files[file] = body!;
      else if (language === 'sh') shell.push(...body!.split('\n').filter((line) => line.trim()));
    }
  return { shell, files };
}
