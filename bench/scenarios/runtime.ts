import { wrap } from 'comlink';
import { fetchWasm } from '../../src/common/backends/ort-wasm';
import type { OrtStart } from '../support/ort-start.worker';
import { quantile, timePaired } from '../support/stats';
import type { Scenario, ScenarioResult } from '../types';

/** onnxruntime-web's builds as the package ships them (gzipped by `npm run build`) and as its own package has them. */
const BUILDS = [
  ['webgpu', 'ort-wasm-simd-threaded.jsep.wasm'],
  ['wasm', 'ort-wasm-simd-threaded.wasm'],
] as const;

const size = async (url: string) => (await fetch(url, { cache: 'no-store' })).arrayBuffer().then((b) => b.byteLength);

/**
 * Runtime start: fetching, inflating and compiling the gzipped `.wasm` Vaani ships, against
 * streaming compilation of onnxruntime-web's plain file, over loopback with no HTTP cache (where
 * the 4× smaller download cannot help). Two servers for the `.gz`: a plain static one
 * (application/gzip: the page inflates it) and one that sends it with `Content-Encoding: gzip`
 * (vite's and sirv's: the browser inflates it). Then an engine worker's start on the module its page
 * compiled once, against the worker fetching, inflating and compiling its own copy (as each did before).
 */
/** A new worker started on `wasm` (bench/support/ort-start.worker.ts), until its first session is open. */
async function startWorker(build: (typeof BUILDS)[number][0], wasm: WebAssembly.Module | string): Promise<void> {
  const worker = new Worker(new URL('../support/ort-start.worker.ts', import.meta.url), { type: 'module' });
  try {
    await wrap<OrtStart>(worker).start(build, wasm);
  } finally {
    worker.terminate();
  }
}

const runtime: Scenario = async (env) => {
  const rows: ScenarioResult[] = [];
  for (const [build, file] of BUILDS) {
    const plain = `/node_modules/onnxruntime-web/dist/${file}`;
    const servers = [
      ['static', `${env.remoteURL}/gz/${file}.gz`, 'a plain static server (application/gzip): inflated in the page'],
      ['encoded', `/node_modules/.cache/vaani/${file}.gz`, 'a server sending Content-Encoding: gzip'],
    ] as const;
    for (const [server, gz, how] of servers) {
      const times = await timePaired(
        6,
        async () => WebAssembly.compile(await fetchWasm(`${gz}?${Math.random()}`)),
        () => WebAssembly.compileStreaming(fetch(`${plain}?${Math.random()}`, { cache: 'no-store' })),
      );
      rows.push({
        id: `runtime.${build}.start.${server}`,
        metric: `onnxruntime-web ${build} build: fetch + inflate + compile of the shipped .gz from ${how} (p50)`,
        unit: 'ms',
        value: quantile(times.a, 0.5),
        baseline: {
          name: "streaming compile of onnxruntime-web's plain .wasm, loopback",
          value: quantile(times.b, 0.5),
        },
        higherIsBetter: false,
        notes: { shippedBytes: await size(`${env.remoteURL}/gz/${file}.gz`), plainBytes: await size(plain) },
      });
      // Each engine worker's start: on the page's compiled module (one fetch and compile per page) or its own copy.
      const fresh = () => `${gz}?${Math.random()}`;
      const module = await WebAssembly.compile(await fetchWasm(fresh()));
      const start = await timePaired(
        6,
        () => startWorker(build, module),
        () => startWorker(build, fresh()),
      );
      rows.push({
        id: `runtime.${build}.worker-ready.${server}`,
        metric: `onnxruntime-web ${build} build: a new worker until its first session is open, on the page's compiled module (p50; the .gz from ${how})`,
        unit: 'ms',
        value: quantile(start.a, 0.5),
        baseline: { name: 'the worker fetching, inflating and compiling its own copy', value: quantile(start.b, 0.5) },
        higherIsBetter: false,
      });
    }
  }
  return rows;
};

export default runtime;
