#!/usr/bin/env node
// `vaani`, the package's command: the built CLI in the published package; in a clone of the
// repository (src/ is there), the TypeScript source through tsx, so no build is needed first.
import { existsSync } from 'node:fs';

const source = new URL('../src/cli/vaani.ts', import.meta.url);
const built = new URL('../dist/cli/vaani.js', import.meta.url);

async function sourceRunner() {
  try {
    return (await import('tsx/esm/api')).tsImport;
  } catch {
    return undefined; // a clone without its dev dependencies
  }
}

const tsImport = existsSync(source) ? await sourceRunner() : undefined;
if (tsImport) await tsImport(source.href, import.meta.url);
else if (existsSync(built)) await import(built.href);
else {
  process.stderr.write('vaani: run `npm ci` in this clone first (the command runs its TypeScript through tsx).\n');
  process.exitCode = 1;
}
