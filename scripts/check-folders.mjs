#!/usr/bin/env node
// Folder-level import check of src/: prints every import cycle between folders (type-only imports
// included: import-x/no-cycle skips them) and, once the tiers exist (src/page and src/worker), every
// import a tier may not make. A worker's URL (`new URL('./x.worker.ts', import.meta.url)`,
// `'./x.ts?worker&url'`, `?url`) starts a worker or names an asset: it is not an import.
// A folder is a top folder of src/ (page/, worker/ and common/: a folder below them); a file directly
// in src/ is its own unit.
//
//   node scripts/check-folders.mjs [src] [--strict] [--graph]
//   --strict: exit 1 when anything is found (report mode, the default, always exits 0)
//   --graph:  also print every edge between units
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const args = process.argv.slice(2);
const root = resolve(args.find((arg) => !arg.startsWith('--')) ?? 'src');
const strict = args.includes('--strict');

/** The tiers each tier may import (type-only imports count); a tier may import itself. */
const ALLOWED = {
  protocol: [],
  catalogue: ['protocol'],
  common: ['protocol', 'catalogue'],
  worker: ['protocol', 'catalogue', 'common'],
  page: ['protocol', 'catalogue', 'common'],
  cli: ['protocol', 'catalogue', 'common'],
  widgets: ['index.ts'],
  'ai-sdk': ['index.ts'],
  'index.ts': ['page', 'protocol', 'catalogue', 'common'],
  'iife.ts': ['index.ts', 'widgets'],
};
/** Single files a tier may import beyond its tiers. */
const EXCEPTIONS = { widgets: ['page/instances.ts', 'common/trusted-types.ts'] };
const tiered = existsSync(join(root, 'page')) && existsSync(join(root, 'worker'));

const unitOf = (file) => {
  const parts = relative(root, file).split(/[\\/]/);
  if (parts.length === 1) return parts[0];
  return ['page', 'worker', 'common'].includes(parts[0]) && parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts[0];
};

const files = readdirSync(root, { recursive: true })
  .map((name) => join(root, String(name)))
  .filter((file) => /\.(ts|mts|js|mjs)$/.test(file));
const known = new Set(files);

// import … from / export … from (with `type` or not), import '…', import('…') (also in types).
const IMPORTS = [
  /^[ \t]*(?:import|export)\s+(type\s+)?([^;]*?)\bfrom\s*['"]([^'"]+)['"]/gm,
  /^[ \t]*import\s*()()['"]([^'"]+)['"]/gm,
  /\bimport\s*\(\s*()()['"]([^'"]+)['"]\s*\)/g,
];
/** The file a relative specifier reaches, or undefined (a package, an asset, a URL). */
function reach(from, specifier) {
  if (!specifier.startsWith('.') || /\?(?:.*&)?(?:worker|url)\b/.test(specifier)) return undefined;
  const base = resolve(dirname(from), specifier.replace(/\?.*$/, ''));
  return [base, `${base}.ts`, join(base, 'index.ts')].find((candidate) => known.has(candidate));
}

/** `{ type A, type B }`: every name imported is a type. */
const onlyTypes = (names) =>
  /^\{[^}]*\}$/.test(names.trim()) &&
  names
    .trim()
    .slice(1, -1)
    .split(',')
    .filter((name) => name.trim())
    .every((name) => /^\s*type\s/.test(name));

const graph = new Map(); // unit → unit → [witness, type-only][]
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  for (const pattern of IMPORTS)
    for (const [, typeKeyword, names, specifier] of text.matchAll(pattern)) {
      const target = reach(file, specifier);
      if (!target) continue;
      const [a, b] = [unitOf(file), unitOf(target)];
      if (a === b) continue;
      const typeOnly = Boolean(typeKeyword) || onlyTypes(names);
      if (!graph.has(a)) graph.set(a, new Map());
      const edges = graph.get(a);
      edges.set(b, [...(edges.get(b) ?? []), [`${relative(root, file)} → ${relative(root, target)}`, typeOnly]]);
    }
}

const problems = [];
if (tiered)
  for (const [a, edges] of graph)
    for (const [b, witnesses] of edges) {
      const [from, to] = [a.split('/')[0], b.split('/')[0]];
      if (!(from in ALLOWED) || from === to || ALLOWED[from].includes(to)) continue;
      for (const [witness] of witnesses)
        if (!(EXCEPTIONS[from] ?? []).includes(witness.split(' → ')[1]))
          problems.push(`${witness}: ${from}/ may import only ${ALLOWED[from].join(', ') || 'nothing in src/'}`);
    }

// Strongly connected components (Tarjan): each one of more than one unit is a cycle.
const units = [...new Set([...graph.keys(), ...[...graph.values()].flatMap((edges) => [...edges.keys()])])].sort();
const index = new Map();
const low = new Map();
const stack = [];
const cycles = [];
const connect = (v) => {
  index.set(v, index.size);
  low.set(v, index.get(v));
  stack.push(v);
  for (const w of graph.get(v)?.keys() ?? []) {
    if (!index.has(w)) connect(w);
    if (stack.includes(w)) low.set(v, Math.min(low.get(v), low.get(w)));
  }
  if (low.get(v) !== index.get(v)) return;
  const component = stack.splice(stack.indexOf(v));
  if (component.length > 1) cycles.push(component.sort());
};
for (const unit of units) if (!index.has(unit)) connect(unit);

for (const cycle of cycles) {
  problems.push(`import cycle between ${cycle.length} folders: ${cycle.join(', ')}`);
  for (const a of cycle)
    for (const [b, witnesses] of graph.get(a) ?? [])
      if (cycle.includes(b)) {
        const [witness, typeOnly] = witnesses.find(([, typeOnly]) => !typeOnly) ?? witnesses[0];
        const more = witnesses.length > 1 ? `, +${witnesses.length - 1}` : '';
        problems.push(`    ${a} → ${b} (${typeOnly ? 'type-only' : 'runtime'}: ${witness}${more})`);
      }
}

if (args.includes('--graph'))
  for (const a of units) console.log(`${a} → ${[...(graph.get(a)?.keys() ?? [])].sort().join(', ')}`);
const edgeCount = [...graph.values()].reduce((sum, edges) => sum + edges.size, 0);
console.log(`check-folders: ${units.length} folders, ${edgeCount} edges, ${cycles.length} cycles`);
if (!tiered) console.log('tier rules: not checked (no src/page and src/worker yet)');
if (problems.length) console.log(problems.join('\n'));
if (problems.length && strict) process.exit(1);
if (problems.length) console.log('report mode: --strict fails on these');
