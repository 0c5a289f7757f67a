import { copyFile, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { INDIC_SOURCES } from '../catalogue/sources';
import { findIndicLayout } from '../common/layouts/indic-conformer';
import { externalDataFiles } from '../common/layouts/onnx-external-data';
import { FOLDER_MANIFEST, type FolderManifest } from '../common/weights';
import type { FileLoader } from '../protocol/weights';
import { sha256Of } from './download';
import { listRepo, type HubFile, type HubRepo } from './hub';
import type { Plan } from './plan';
import { formatSize } from './progress';
import { pull, readManifestIn, servedPath, type PullOptions } from './pull';
import { quantizeEncoder, type QuantizeReport } from './quantize-int8';

/** The folder `vaani pull speech-stt-v1 --indic --int8` writes, under `--to`. */
export const INDIC_INT8_FOLDER = 'speech-stt-v1-indic';

/** How the folder's int8 encoder was made, recorded in its manifest. */
export const INDIC_INT8_RECIPE =
  "onnxruntime's dynamic quantisation: DynamicQuantizeLinear + MatMulInteger, int8 weights per output column, self-contained";

export interface IndicInt8Options extends PullOptions {
  host: string;
  /** Default: the catalogue's revision of AI4Bharat's repo. */
  revision?: string;
  /** Where AI4Bharat's fp32 files are downloaded (resumable) before the int8 files are written. */
  cache: string;
  /** Keep the fp32 download after the build (default: only its manifest stays, for trust-on-first-use). */
  keepSource?: boolean;
}

export interface IndicInt8Result {
  folder: string;
  manifest: FolderManifest;
  quantize: QuantizeReport;
  /** Wall time and peak resident memory of the conversion step (not the download). */
  convertMs: number;
  peakRssBytes: number;
}

/** A FileLoader that answers `has` from a listing and reads files already on disk. */
const listedLoader = (names: Set<string>, folder: string): FileLoader => ({
  has: async (file) => names.has(file),
  load: async (file) => new Uint8Array(await readFile(join(folder, ...file.split('/')))),
});

const sourceId = (repo: string) => repo.replace(/\//g, '--');

/**
 * `vaani pull speech-stt-v1 --indic --int8`: downloads AI4Bharat's own fp32 export of
 * IndicConformer (its encoder in external-data files, the CTC head and vocabularies) into the cache
 * with `vaani pull`'s checks — the commit `main` resolves to, the hub's sizes and SHA-256, and what
 * an earlier build recorded (trust on first use) — then writes the int8 encoder and the other files
 * the WASM int8 path reads into `<to>/speech-stt-v1-indic/` with a vaani-manifest.json, so a site
 * serves files it made itself.
 */
export async function pullIndicInt8(options: IndicInt8Options): Promise<IndicInt8Result> {
  const log = options.log ?? process.stderr;
  const fetchImpl = options.fetch ?? fetch;
  const repo: HubRepo = {
    host: options.host,
    repo: INDIC_SOURCES.fp32.repo!,
    revision: options.revision ?? INDIC_SOURCES.fp32.revision ?? 'main',
  };
  const listing = await listRepo(repo, fetchImpl);
  const byName = new Map(listing.map((file) => [file.path, file]));
  const names = new Set(byName.keys());
  const id = sourceId(repo.repo);
  const sourceFolder = join(options.cache, id);
  const layout = await findIndicLayout(listedLoader(names, sourceFolder), 'fp32', false);
  if (!layout) throw new Error(`${repo.repo}@${repo.revision} has no assets/encoder.onnx: not AI4Bharat's layout.`);
  const p = layout.prefix;
  const listed = (name: string, optional = false): HubFile[] => {
    const file = byName.get(name);
    if (!file && !optional) throw new Error(`${repo.repo}@${repo.revision} lacks ${name}.`);
    return file ? [file] : [];
  };
  // The int8 path reads these (CTC decoding: the published int8 copies carry no RNN-T graphs).
  const heads = [
    ...listed('config.json', true),
    ...listed(`${p}vocab.json`),
    ...listed(`${p}language_masks.json`),
    ...listed(`${p}ctc_decoder.onnx`),
  ];
  const plan = (files: HubFile[], revision: string): Plan => ({
    id,
    key: 'speech-stt-v1',
    layout: 'whisper',
    repo: { ...repo, revision },
    dtypes: ['fp32'],
    files,
  });
  const pullOptions = { ...options, to: options.cache };
  const first = await pull(plan([...listed(layout.encoder), ...heads], repo.revision), pullOptions);
  // The encoder names its external-data files inside the graph: read it, then fetch them from the same commit.
  const graph = new Uint8Array(await readFile(join(sourceFolder, ...layout.encoder.split('/'))));
  const data = externalDataFiles(graph).flatMap((name) => listed(`${p}${name}`));
  const source = data.length ? await pull(plan(data, first.source.revision), pullOptions) : first;
  const total = data.reduce((sum, file) => sum + file.size, 0);
  log.write(`speech-stt-v1: ${data.length} external-data files, ${formatSize(total)} of fp32 weights.\n`);

  const folder = join(options.to, INDIC_INT8_FOLDER);
  await mkdir(folder, { recursive: true });
  const started = performance.now();
  let peakRssBytes = process.memoryUsage.rss();
  const sampler = setInterval(() => (peakRssBytes = Math.max(peakRssBytes, process.memoryUsage.rss())), 20);
  let quantize: QuantizeReport;
  try {
    const part = join(folder, 'encoder.onnx.part');
    quantize = await quantizeEncoder(join(sourceFolder, ...layout.encoder.split('/')), part);
    await rename(part, join(folder, 'encoder.onnx'));
  } finally {
    clearInterval(sampler);
    peakRssBytes = Math.max(peakRssBytes, process.memoryUsage.rss());
  }
  const convertMs = performance.now() - started;
  // The other files go to the folder's root as they are, beside the encoder (the int8 copies' layout).
  const copied = heads.map((file) => file.path);
  for (const name of copied)
    await copyFile(join(sourceFolder, ...name.split('/')), join(folder, name.slice(name.startsWith(p) ? p.length : 0)));
  const files: FolderManifest['files'] = [];
  for (const name of ['encoder.onnx', ...copied.map((n) => n.slice(n.startsWith(p) ? p.length : 0))]) {
    const path = join(folder, name);
    files.push({ name, size: (await stat(path)).size, sha256: await sha256Of(path) });
  }
  const manifest: FolderManifest = {
    vaani: 1,
    model: 'speech-stt-v1',
    source: source.source,
    dtypes: ['int8'],
    files: files.sort((a, b) => a.name.localeCompare(b.name)),
    built: {
      by: 'vaani pull speech-stt-v1 --indic --int8',
      recipe: INDIC_INT8_RECIPE,
      from: source.files,
    },
  };
  await writeFile(join(folder, FOLDER_MANIFEST), JSON.stringify(manifest, null, 2) + '\n');
  if (!options.keepSource) {
    // The fp32 files go; their manifest stays, so the next build checks the hub's files against it.
    const kept = await readManifestIn(sourceFolder);
    for (const file of kept?.files ?? []) await rm(join(sourceFolder, ...file.name.split('/')), { force: true });
  }
  log.write(
    `speech-stt-v1: int8 encoder written (${quantize.matmuls} MatMuls quantised, ${formatSize(quantize.bytesIn)} of weights in, ${formatSize(quantize.bytesOut)} out) in ${(convertMs / 1000).toFixed(1)} s, peak memory ${formatSize(peakRssBytes)}.\n`,
  );
  return { folder, manifest, quantize, convertMs, peakRssBytes };
}

/** The `createVaani` line for the built folder. */
export const indicSnippet = (to: string) =>
  `createVaani({ models: { 'speech-stt-v1': { indic: { baseURL: '${servedPath(to)}${INDIC_INT8_FOLDER}/', dtype: 'int8' } } } });`;
