import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { chromium } from '@playwright/test';
import { createServer } from 'vite';
import { startBenchRemote } from './remote.mjs';

/**
 * npm run bench: serves bench/page.html (cross-origin isolated) with the built library, runs every
 * scenario in bench/scenarios/ in headless Chromium, prints a table and writes bench/results/latest.json.
 * `npm run bench -- chat store` runs only the named scenarios. A scenario may ship a node-side
 * `bench/prepare/<name>.ts` (run first, with tsx) that writes the files it needs.
 */
const only = process.argv.slice(2);
const port = Number(process.env.VAANI_BENCH_PORT ?? 5190);
const scenarioNames = (await readdir(new URL('./scenarios/', import.meta.url)))
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.replace(/\.ts$/, ''))
  .filter((name) => !only.length || only.includes(name));

const prepares = new Set(await readdir(new URL('./prepare/', import.meta.url)).catch(() => []));
for (const name of scenarioNames) {
  if (prepares.has(`${name}.ts`)) {
    console.log(`preparing ${name} …`);
    execFileSync('npx', ['tsx', new URL(`./prepare/${name}.ts`, import.meta.url).pathname], { stdio: 'inherit' });
  }
}

const remote = await startBenchRemote();
const server = await createServer({
  configFile: new URL('../vite.test.config.ts', import.meta.url).pathname,
  cacheDir: new URL('../node_modules/.vite-bench', import.meta.url).pathname,
  server: { port, strictPort: true },
  // The scenarios run the library from src/: vite scans it all (workers included) before the page
  // loads, so no dependency is discovered mid-run (each discovery reloads the page under a scenario).
  optimizeDeps: { entries: ['bench/page.html', 'bench/scenarios/*.ts', 'src/**/*.ts'] },
  logLevel: 'warn',
});
await server.listen();
const launchOptions = {
  executablePath: '/usr/bin/chromium',
  args: ['--enable-unsafe-webgpu', '--js-flags=--expose-gc', '--enable-precise-memory-info'],
};
const browser = await chromium.launch(launchOptions);
/**
 * Scenarios whose models outgrow the in-memory storage of a fresh browser context (chat-scaling's
 * 2 GB fp32 file: the weight store's IndexedDB write is refused there), and the store's own bench
 * (visitors' caches are on disk), run in a profile on disk, made for them and removed after.
 */
const ON_DISK = new Set(['chat-scaling', 'store', 'fit-memory']);

/**
 * Scenarios run once per device profile and link speed, each in a fresh context whose init script
 * makes the browser report the profile (before the page's scripts): the fit scenario's three devices
 * (low: 2 GB, no WebGPU adapter, Save-Data on; mid: 4 GB, no adapter; high: 8 GB, the WebGPU API as
 * the browser has it) at 10 and 50 Mbit/s, the speed bench/remote.mjs paces its files at and the
 * downlink navigator.connection reports.
 */
const PROFILED = {
  fit: ['low', 'mid', 'high'].flatMap((profile) => [10, 50].map((mbps) => ({ profile, mbps }))),
};
const DEVICES = {
  low: { memory: 2, adapter: false, saveData: true },
  mid: { memory: 4, adapter: false, saveData: false },
  high: { memory: 8, adapter: true, saveData: false },
};

/** The init script: navigator.deviceMemory, navigator.connection and (where the profile has none) no WebGPU adapter. */
function deviceProfile({ memory, adapter, saveData, mbps }) {
  const define = (target, name, value) => Object.defineProperty(target, name, { get: () => value, configurable: true });
  define(Navigator.prototype, 'deviceMemory', memory);
  define(Navigator.prototype, 'connection', {
    saveData,
    effectiveType: '4g',
    downlink: mbps,
    rtt: 50,
    addEventListener() {},
    removeEventListener() {},
  });
  if (!adapter && typeof GPU !== 'undefined') GPU.prototype.requestAdapter = async () => null;
}
/**
 * Where the machine's CPU went (Linux /proc, in clock ticks): every core's busy time and the busy
 * time of this bench (this process, its vite server, the browser and every process under it). The
 * difference is what other jobs on the shared machine took; `othersCores` turns two snapshots into
 * their mean number of busy cores. Scenarios read it through `window.benchCpu` (bench/support/cpu.ts).
 */
function cpuSnapshot() {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const total = fields.reduce((sum, n) => sum + n, 0);
    const busy = total - fields[3] - fields[4];
    const parent = new Map();
    const ticks = new Map();
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        parent.set(pid, rest[1]);
        ticks.set(pid, Number(rest[11]) + Number(rest[12]));
      } catch {
        // gone meanwhile
      }
    }
    const ours = (pid) => {
      for (let at = pid, hops = 0; at && hops < 64; at = parent.get(at), hops++)
        if (at === String(process.pid)) return true;
      return false;
    };
    let bench = 0;
    for (const [pid, t] of ticks) if (ours(pid)) bench += t;
    return { at: performance.now(), busy, bench };
  } catch {
    return null;
  }
}
/** Mean busy cores of other jobs between two snapshots (null off Linux). */
const othersCores = (a, b) =>
  a && b ? Number((((b.busy - a.busy - (b.bench - a.bench)) * 10) / (b.at - a.at)).toFixed(2)) : null;

let rows = [];
const trace = process.env.VAANI_BENCH_TRACE;
const TRACE_CATEGORIES = ['disabled-by-default-v8.cpu_profiler', 'v8.execute', 'devtools.timeline'];
let backend;

/** Opens the bench page in `context` and returns a runner of scenarios in it. */
async function benchPage(context) {
  const page = await context.newPage();
  page.on('console', (message) => console.log(`  [page] ${message.text()}`));
  page.on('pageerror', (error) => console.log(`  [page error] ${error.message}`));
  page.setDefaultTimeout(0);
  await page.exposeFunction('benchCpu', cpuSnapshot);
  await page.goto(`http://localhost:${port}/bench/page.html`);
  await page.waitForFunction(() => document.title === 'ready');
  backend ??= await page.evaluate(async () => ((await navigator.gpu?.requestAdapter()) ? 'wasm+webgpu' : 'wasm'));
  const ready = () =>
    page.waitForFunction(() => document.title === 'ready' && typeof window.runScenario === 'function');
  // The dev server may reload the page once when it first meets a worker's dependency: run again.
  const run = async (name, params = {}, tries = 3) => {
    try {
      return await page.evaluate(([n, url, p]) => window.runScenario(n, url, p), [name, remote.url, params]);
    } catch (error) {
      if (tries <= 1 || !/context was destroyed|navigation/i.test(String(error))) throw error;
      console.log(`  the page reloaded during ${name}; running it again`);
      await page.waitForLoadState('load');
      await ready();
      return run(name, params, tries - 1);
    }
  };
  return run;
}

try {
  const inMemory = await benchPage(browser);
  for (const name of scenarioNames) {
    console.log(`running ${name} …`);
    // The machine is shared: every row keeps the load average (1, 5, 15 min) before and after its scenario.
    const before = loadavg().map((n) => Number(n.toFixed(2)));
    const cpuBefore = cpuSnapshot();
    let result;
    if (PROFILED[name]) {
      result = { rows: [] };
      for (const params of PROFILED[name]) {
        console.log(`  ${params.profile} device, ${params.mbps} Mbit/s`);
        const context = await browser.newContext();
        await context.addInitScript(deviceProfile, { ...DEVICES[params.profile], mbps: params.mbps });
        try {
          const one = await (await benchPage(context))(name, params);
          if (one.error) result.error = `${params.profile} ${params.mbps} Mbit/s: ${one.error}`;
          result.rows.push(...one.rows);
        } finally {
          await context.close();
        }
        if (result.error) break;
      }
    } else if (ON_DISK.has(name)) {
      const dir = await mkdtemp(join(tmpdir(), 'vaani-bench-'));
      const context = await chromium.launchPersistentContext(dir, launchOptions);
      try {
        result = await (await benchPage(context))(name);
      } finally {
        await context.close();
        await rm(dir, { recursive: true, force: true });
      }
    } else if (trace) {
      // VAANI_BENCH_TRACE=<file.json>: a Chromium trace of the scenario with V8's sampling CPU
      // profiler on (every thread, workers included); scripts/cpu-profile.mjs sums it up.
      await browser.startTracing(undefined, { path: trace, categories: TRACE_CATEGORIES });
      try {
        result = await inMemory(name);
      } finally {
        await browser.stopTracing();
      }
    } else result = await inMemory(name);
    if (result.error) {
      console.log(`  ${name} failed: ${result.error}`);
      continue;
    }
    // othersCores: the mean busy cores of other jobs on the machine over the scenario (/proc).
    const load = {
      before,
      after: loadavg().map((n) => Number(n.toFixed(2))),
      othersCores: othersCores(cpuBefore, cpuSnapshot()),
    };
    rows.push(...result.rows.map((row) => ({ ...row, notes: { ...row.notes, load } })));
  }
} finally {
  await browser.close();
  await server.close();
  await remote.close();
}

rows = rows.map((row) => ({ ...row, ratio: row.baseline ? row.value / row.baseline.value : null }));
const browserVersion = execFileSync('/usr/bin/chromium', ['--version']).toString().trim();
const results = { date: new Date().toISOString(), browser: browserVersion, backend, scenarios: rows };
await mkdir(new URL('./results/', import.meta.url), { recursive: true });
const previous = await import(new URL('./results/latest.json', import.meta.url), { with: { type: 'json' } }).then(
  (m) => m.default,
  () => null,
);
const kept = only.length && previous ? previous.scenarios.filter((row) => !rows.some((r) => r.id === row.id)) : [];
results.scenarios = [...kept, ...rows];
await writeFile(new URL('./results/latest.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);

const fmt = (n) =>
  n == null ? '—' : Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 1 ? n.toFixed(2) : n.toPrecision(3);
console.log(
  `\n${'id'.padEnd(40)} ${'value'.padStart(10)} ${'unit'.padEnd(10)} ${'baseline'.padStart(10)} ${'ratio'.padStart(7)}  baseline name`,
);
for (const row of rows) {
  const better = row.ratio == null ? '' : (row.higherIsBetter ? row.ratio >= 1 : row.ratio <= 1) ? ' ✓' : '';
  console.log(
    `${row.id.padEnd(40)} ${fmt(row.value).padStart(10)} ${row.unit.padEnd(10)} ${fmt(row.baseline?.value).padStart(10)} ${fmt(row.ratio).padStart(7)}${better}  ${row.baseline?.name ?? ''}`,
  );
}
console.log('\nwrote bench/results/latest.json');
