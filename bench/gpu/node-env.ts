/* eslint-disable @typescript-eslint/no-explicit-any -- JSON reports passed between processes, and Dawn's untyped binding */
/**
 * What a browser gives onnxruntime-web and Vaani that Node lacks, and nothing more:
 * - `navigator.gpu` and the GPU* globals from Dawn (the `webgpu` package's dawn.node);
 * - `GPUQueue.writeBuffer` taking data in a SharedArrayBuffer (WebGPU's AllowSharedBufferSource:
 *   Chrome takes it, dawn.node's binding answers "no overload matched"), by copying the range into
 *   a plain ArrayBuffer first: onnxruntime-web's threaded builds keep their heap in shared memory;
 * - `fetch` of file: URLs and object URLs for them, so onnxruntime-web's multi-threaded start (it
 *   fetches its .mjs and imports it from a blob: URL when the script is not same-origin) imports the
 *   .mjs file itself, whose pthread workers Node's worker_threads can then start.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Folder of the bundled bench (bench.mjs, ort/, webgpu/). */
export const appDir = fileURLToPath(new URL('.', import.meta.url));

export const ORT_BUILDS = {
  /** onnxruntime-web's default build (`import('onnxruntime-web')`): JSEP. What Vaani loaded for WebGPU until it moved to `native`. */
  jsep: { module: 'ort.min.mjs', wasm: 'ort-wasm-simd-threaded.jsep.wasm' },
  /** `onnxruntime-web/webgpu`: the native (C++) WebGPU EP, asyncify build. What Vaani loads when WebGPU may be tried. */
  native: { module: 'ort.webgpu.min.mjs', wasm: 'ort-wasm-simd-threaded.asyncify.wasm' },
  /** What Vaani loads for WASM only (`import('onnxruntime-web/wasm')`). */
  wasm: { module: 'ort.wasm.min.mjs', wasm: 'ort-wasm-simd-threaded.wasm' },
} as const;
export type OrtBuildName = keyof typeof ORT_BUILDS;

export function installFileFetch(): void {
  const g = globalThis as any;
  if (g.__fileFetch) return;
  const sources = new WeakMap<Blob, string>();
  const realFetch = g.fetch;
  g.fetch = async (input: any, init?: any) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input?.url;
    if (typeof url !== 'string' || !url.startsWith('file:')) return realFetch(input, init);
    const bytes = await readFile(fileURLToPath(url));
    const blob = new Blob([bytes]);
    sources.set(blob, url);
    return new (class extends Response {
      override async blob() {
        return blob;
      }
    })(bytes, { status: 200 });
  };
  const create = URL.createObjectURL.bind(URL);
  const revoke = URL.revokeObjectURL.bind(URL);
  URL.createObjectURL = (blob: Blob) => sources.get(blob) ?? create(blob);
  URL.revokeObjectURL = (url: string) => (String(url).startsWith('blob:') ? revoke(url) : undefined);
  g.__fileFetch = true;
}

export interface WriteBufferStats {
  calls: number;
  sharedCopies: number;
  sharedBytes: number;
}

export const writeBufferStats: WriteBufferStats = { calls: 0, sharedCopies: 0, sharedBytes: 0 };

function patchWriteBuffer(GPUQueue: any): void {
  const proto = GPUQueue?.prototype;
  if (!proto || proto.__sharedPatched) return;
  const original = proto.writeBuffer;
  let scratch = new ArrayBuffer(1 << 20);
  const isShared = (b: unknown) => typeof SharedArrayBuffer !== 'undefined' && b instanceof SharedArrayBuffer;
  proto.writeBuffer = function (
    this: unknown,
    buffer: unknown,
    bufferOffset: number,
    data: any,
    dataOffset?: number,
    size?: number,
  ) {
    writeBufferStats.calls++;
    const shared = isShared(data) || (ArrayBuffer.isView(data) && isShared(data.buffer));
    if (!shared) {
      // eslint-disable-next-line prefer-rest-params
      return original.apply(this, arguments);
    }
    let bytes: Uint8Array;
    if (isShared(data)) {
      const at = dataOffset ?? 0;
      bytes = new Uint8Array(data, at, size ?? data.byteLength - at);
    } else {
      const element = data.BYTES_PER_ELEMENT ?? 1;
      const at = (dataOffset ?? 0) * element;
      const length = size !== undefined ? size * element : data.byteLength - at;
      bytes = new Uint8Array(data.buffer, data.byteOffset + at, length);
    }
    // writeBuffer copies the data during the call, so one scratch buffer serves every call; a large
    // one-off (a weight at session start) gets its own and is not kept.
    let target = scratch;
    if (bytes.byteLength > scratch.byteLength) {
      target = new ArrayBuffer(bytes.byteLength);
      if (bytes.byteLength <= 64 << 20) scratch = target;
    }
    new Uint8Array(target, 0, bytes.byteLength).set(bytes);
    writeBufferStats.sharedCopies++;
    writeBufferStats.sharedBytes += bytes.byteLength;
    return original.call(this, buffer, bufferOffset, target, 0, bytes.byteLength);
  };
  proto.__sharedPatched = true;
}

/** WebGPU calls made so far, whichever runtime made them (JSEP's JS or the native EP through Emscripten). */
export const gpuCalls = { dispatches: 0, submits: 0, maps: 0, writes: 0 };

function countCalls(globals: any): void {
  const wrap = (proto: any, method: string, key: keyof typeof gpuCalls) => {
    if (!proto?.[method] || proto[`__counted_${method}`]) return;
    const original = proto[method];
    proto[method] = function (this: unknown, ...args: unknown[]) {
      gpuCalls[key]++;
      return original.apply(this, args);
    };
    proto[`__counted_${method}`] = true;
  };
  wrap(globals.GPUComputePassEncoder?.prototype, 'dispatchWorkgroups', 'dispatches');
  wrap(globals.GPUComputePassEncoder?.prototype, 'dispatchWorkgroupsIndirect', 'dispatches');
  wrap(globals.GPUQueue?.prototype, 'submit', 'submits');
  wrap(globals.GPUBuffer?.prototype, 'mapAsync', 'maps');
  wrap(globals.GPUQueue?.prototype, 'writeBuffer', 'writes');
  const device = globals.GPUDevice?.prototype;
  if (device?.createBindGroup && !device.__explained) {
    // dawn.node's refusal names no value: say what the failing entries held.
    const create = device.createBindGroup;
    device.createBindGroup = function (this: unknown, descriptor: any) {
      try {
        return create.call(this, descriptor);
      } catch (error) {
        const show = (r: any) =>
          r && typeof r === 'object' && 'buffer' in r
            ? `{buffer: ${r.buffer?.constructor?.name} size ${r.buffer?.size}, offset ${String(r.offset)} (${typeof r.offset}), size ${String(r.size)} (${typeof r.size})}`
            : `${r?.constructor?.name}`;
        const entries = (descriptor?.entries ?? []).map((e: any) => `${e.binding}: ${show(e.resource)}`);
        throw new Error(`${(error as Error).message} [entries: ${entries.join('; ')}]`, { cause: error });
      }
    };
    device.__explained = true;
  }
}

export interface DawnSetup {
  gpu: any;
  options: string[];
  /** Adapters are asked for with featureLevel 'compatibility' (software OpenGL ES fallback only). */
  compat: boolean;
}

/** Loads dawn.node, installs the GPU* globals and `navigator.gpu`. */
export async function installDawn(options: string[], compat = false): Promise<DawnSetup> {
  const { create, globals } = await import(pathToFileURL(join(appDir, 'webgpu', 'index.js')).href);
  Object.assign(globalThis, globals);
  patchWriteBuffer(globals.GPUQueue);
  countCalls(globals);
  const gpu = create(options);
  if (compat) {
    const request = gpu.requestAdapter.bind(gpu);
    gpu.requestAdapter = (o: object = {}) => request({ ...o, featureLevel: 'compatibility' });
  }
  const g = globalThis as any;
  try {
    Object.defineProperty(g.navigator, 'gpu', { value: gpu, configurable: true, enumerable: true });
  } catch {
    Object.defineProperty(g, 'navigator', {
      value: { hardwareConcurrency: 1, ...g.navigator, gpu },
      configurable: true,
    });
  }
  return { gpu, options, compat };
}

/** One onnxruntime-web build, loaded from the bundle's ort/ folder, its .wasm handed over as Vaani's provideWasm does. */
export async function importOrt(build: OrtBuildName): Promise<any> {
  const files = ORT_BUILDS[build];
  const dir = join(appDir, 'ort');
  const ort = await import(pathToFileURL(join(dir, files.module)).href);
  ort.env.wasm.wasmBinary = await readFile(join(dir, files.wasm));
  return ort;
}
