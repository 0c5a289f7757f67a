#!/usr/bin/env node
// Moves files by an old → new map (TSV, `old<TAB>new`, paths under --base, default src/) with no
// other change: rewrites every specifier that names a moved file, or that a moved file writes, in
// src/, test/, bench/, demo/, scripts/ and the root configs (import/export … from, import '…',
// import(), new URL('…', import.meta.url), queries such as ?worker&url kept, and every quoted
// '/src/…' path of the test pages), keeping how each was written ('./x', './x.ts', a folder's
// index), then `git mv`s the files. Rows whose new path is '(deleted)' or '??' are skipped.
// It checks that every specifier that resolves today still resolves after the move.
//
//   node scripts/move-files.mjs <repo> <map.tsv> [--base src] [--dry-run] [--list] [--prose]
//   --dry-run: change nothing, print the counts   --list: print every rewritten specifier
//   --prose:   print a sed script for the paths in Markdown and comments (not applied)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, relative, resolve } from 'node:path';

const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args.splice(args.indexOf(name), 2)[1] : undefined);
const baseDir = option('--base') ?? 'src';
const flags = new Set(args.filter((arg) => arg.startsWith('--')));
const [repoArg, mapArg] = args.filter((arg) => !arg.startsWith('--'));
if (!repoArg || !mapArg) {
  console.error('usage: node scripts/move-files.mjs <repo> <map.tsv> [--base src] [--dry-run] [--list] [--prose]');
  process.exit(2);
}
const repo = resolve(repoArg);
const base = join(repo, baseDir);
const fail = (message) => {
  console.error(`move-files: ${message}`);
  process.exit(1);
};

const SKIP = /^(node_modules|dist|\.git|test-results|playwright-report|test\/\.fixtures|bench\/results)$/;
const walk = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (SKIP.test(relative(repo, path))) return [];
    return entry.isDirectory() ? walk(path) : [path];
  });
const before = new Set(walk(repo));

const map = new Map(); // absolute old → absolute new
const skipped = [];
const named = new Set();
for (const row of readFileSync(mapArg, 'utf8').split('\n')) {
  const [oldPath, newPath] = row.split('\t').map((cell) => cell?.trim());
  if (!oldPath || !newPath || oldPath.startsWith('#')) continue;
  named.add(join(base, oldPath));
  if (/^(\(|\?\?)/.test(newPath) || oldPath === newPath) continue;
  if (!before.has(join(base, oldPath))) skipped.push(oldPath);
  else map.set(join(base, oldPath), join(base, newPath));
}
for (const to of map.values()) if (existsSync(to)) fail(`${relative(repo, to)} exists already (no chains or swaps)`);
const moved = (path) => map.get(path) ?? path;
const after = new Set([...before].map(moved));
if (after.size !== before.size) fail('two files would land on the same path');

/** The file a specifier reaches from `dir` among `files`, and how it was written. */
function reach(dir, specifier, files) {
  const [path, query = ''] = specifier.split(/(?=\?)/);
  const target = path.startsWith('/src/') ? join(repo, path) : resolve(dir, path);
  if (files.has(target)) return { target, style: 'file', query };
  if (files.has(`${target}.ts`)) return { target: `${target}.ts`, style: 'bare', query };
  if (files.has(join(target, 'index.ts'))) return { target: join(target, 'index.ts'), style: 'folder', query };
  return undefined;
}

/** The specifier for `target` from `dir`, written in `style`. */
function write(dir, { target, style, query }, absolute) {
  let path = absolute ? `/${relative(repo, target)}` : posix.normalize(relative(dir, target).split('\\').join('/'));
  if (!absolute && !path.startsWith('.')) path = `./${path}`;
  if (style === 'folder') path = path.replace(/\/index\.ts$/, '');
  if (style !== 'file') path = path.replace(/\.ts$/, '');
  return path + query;
}

const IMPORT_CONTEXT = /(?:\bfrom|\bimport|\bimport\s*\(|\bnew URL\()\s*$/;
const QUOTED = /(['"])((?:\.{1,2}\/|\/src\/)[^'"\n]*)\1/g;
const scanned = [...before].filter(
  (file) =>
    /\.(ts|mts|cts|js|mjs|html)$/.test(file) &&
    (dirname(file) === repo || /^(src|test|bench|demo|scripts)\//.test(relative(repo, file))),
);
const rewrites = [];
const writes = [];
const broken = [];
const untouched = [];
const unresolved = [];
for (const file of scanned) {
  const text = readFileSync(file, 'utf8');
  const [oldDir, newDir] = [dirname(file), dirname(moved(file))];
  const next = text.replace(QUOTED, (whole, quote, specifier, offset) => {
    const absolute = specifier.startsWith('/src/');
    const isImport = IMPORT_CONTEXT.test(text.slice(Math.max(0, offset - 40), offset));
    if (!absolute && !isImport) {
      const hit = reach(oldDir, specifier, before);
      if (hit && (map.has(hit.target) || (map.has(file) && hit.target.startsWith(base))))
        untouched.push(`${relative(repo, file)}: ${specifier}`);
      return whole;
    }
    const hit = reach(oldDir, specifier, before);
    if (!hit) {
      unresolved.push(`${relative(repo, file)}: ${specifier}`);
      return whole;
    }
    const target = moved(hit.target);
    if (target === hit.target && !map.has(file)) return whole;
    const out = write(newDir, { ...hit, target }, absolute);
    if (reach(newDir, out, after)?.target !== target) broken.push(`${relative(repo, file)}: ${specifier} → ${out}`);
    if (out === specifier) return whole;
    rewrites.push(`${relative(repo, file)}: ${specifier} → ${out}`);
    return `${quote}${out}${quote}`;
  });
  if (next !== text) writes.push([file, next]);
}

console.log(`${map.size} files to move; ${rewrites.length} specifiers in ${writes.length} files to rewrite`);
if (skipped.length) console.log(`not in this tree, skipped (${skipped.length}): ${skipped.join(', ')}`);
const unnamed = [...before].filter((file) => file.startsWith(`${base}/`) && file.endsWith('.ts') && !named.has(file));
if (unnamed.length)
  console.log(
    `files the map does not name, left where they are (${unnamed.length}):\n  ${unnamed.map((file) => relative(base, file)).join('\n  ')}`,
  );
console.log(`specifiers that do not resolve today, left as they are: ${unresolved.length}`);
if (untouched.length)
  console.log(
    `paths outside an import naming a moved file, left for a hand (${untouched.length}):\n  ${untouched.join('\n  ')}`,
  );
if (flags.has('--list'))
  console.log([...rewrites, ...unresolved.map((line) => `${line} (does not resolve)`)].join('\n'));
if (flags.has('--prose'))
  for (const [from, to] of [...map].sort((a, b) => b[0].length - a[0].length))
    console.log(`s#${relative(repo, from).replace(/\./g, '\\.')}#${relative(repo, to)}#g`);
if (broken.length) fail(`these would not resolve after the move:\n  ${broken.join('\n  ')}`);
if (flags.has('--dry-run')) process.exit(0);

for (const [file, text] of writes) writeFileSync(file, text);
for (const [from, to] of map) {
  mkdirSync(dirname(to), { recursive: true });
  execFileSync('git', ['mv', relative(repo, from), relative(repo, to)], { cwd: repo });
}
console.log('moved; next: npm run typecheck && npm run lint && vitest run && npm run build && playwright test');
