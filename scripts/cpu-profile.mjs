#!/usr/bin/env node
/**
 * Sums up a Chromium trace taken with `disabled-by-default-v8.cpu_profiler` (VAANI_BENCH_TRACE=…
 * npm run bench -- <scenario>): per thread, the sampled self time by where the code comes from
 * (onnxruntime's WebAssembly, pdf.js, the tokenizer, Vaani, idle, GC …) and the top functions.
 *   node scripts/cpu-profile.mjs trace.json [top]
 */
import { readFileSync } from 'node:fs';

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error('usage: node scripts/cpu-profile.mjs trace.json [top]');
const top = Number(topArg ?? 12);
const parsed = JSON.parse(readFileSync(file, 'utf8'));
const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;

const threadNames = new Map();
for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') threadNames.set(`${e.pid}:${e.tid}`, e.args.name);

/** Profiles by pid + id: nodes by id and (node, µs) samples. */
const profiles = new Map();
for (const e of events) {
  if (e.name !== 'Profile' && e.name !== 'ProfileChunk') continue;
  const key = `${e.pid}:${e.id}`;
  let profile = profiles.get(key);
  if (!profile) profiles.set(key, (profile = { thread: `${e.pid}:${e.tid}`, nodes: new Map(), samples: [] }));
  if (e.name === 'Profile') profile.thread = `${e.pid}:${e.tid}`;
  const cpu = e.args?.data?.cpuProfile;
  for (const node of cpu?.nodes ?? []) profile.nodes.set(node.id, node);
  const deltas = e.args?.data?.timeDeltas ?? [];
  (cpu?.samples ?? []).forEach((id, i) => profile.samples.push([id, Math.max(0, deltas[i] ?? 0)]));
}

function origin({ functionName: name, url = '' }) {
  if (name === '(idle)') return 'idle';
  if (name === '(garbage collector)') return 'garbage collector';
  if (name === '(program)' || name === '(root)') return 'browser (program)';
  if (/ort-wasm|onnxruntime/.test(url) || /^(\$|wasm-function)/.test(name)) return 'onnxruntime (wasm + its js)';
  if (/pdfjs|pdf\.worker/.test(url)) return 'pdf.js';
  if (/tokenizers|transformers/.test(url)) return 'tokenizer / transformers.js';
  if (/comlink/.test(url)) return 'comlink (messages)';
  if (/\/src\//.test(url)) return 'vaani';
  if (!url) return `native (${name})`;
  return url
    .replace(/^.*\/node_modules\//, '')
    .replace(/\?.*$/, '')
    .split('/')
    .slice(0, 2)
    .join('/');
}

const ms = (us) => (us / 1000).toFixed(0).padStart(7);
for (const profile of [...profiles.values()].sort((a, b) => b.samples.length - a.samples.length)) {
  const self = new Map();
  const byOrigin = new Map();
  let total = 0;
  for (const [id, us] of profile.samples) {
    const frame = { functionName: '?', url: '', ...profile.nodes.get(id)?.callFrame };
    const key = `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*\//, '').replace(/\?.*$/, '')}`;
    self.set(key, (self.get(key) ?? 0) + us);
    const where = origin(frame);
    byOrigin.set(where, (byOrigin.get(where) ?? 0) + us);
    total += us;
  }
  const busy = total - (byOrigin.get('idle') ?? 0);
  if (busy < 50_000) continue;
  console.log(`\n${threadNames.get(profile.thread) ?? profile.thread}: ${ms(total)} ms sampled, ${ms(busy)} ms busy`);
  for (const [where, us] of [...byOrigin].sort((a, b) => b[1] - a[1]))
    console.log(`  ${ms(us)} ms ${((100 * us) / total).toFixed(1).padStart(5)} %  ${where}`);
  console.log('  top functions (self):');
  for (const [key, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`  ${ms(us)} ms ${((100 * us) / total).toFixed(1).padStart(5)} %  ${key}`);
}
