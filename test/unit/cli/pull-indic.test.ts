import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import decode from 'audio-decode';
import onnxProto from 'onnx-proto';
import * as ortNode from 'onnxruntime-node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { INDIC_SOURCES } from '../../../src/catalogue/sources';
import { hubFetch, main } from '../../../src/cli/main';
import type { Ort } from '../../../src/common/backends/ort';
import { findIndicLayout } from '../../../src/common/layouts/indic-conformer';
import { externalDataFiles } from '../../../src/common/layouts/onnx-external-data';
import { FOLDER_MANIFEST, parseFolderManifest, type FolderManifest } from '../../../src/common/weights';
import type { FileLoader } from '../../../src/protocol/weights';
import { readConfig, startIndicConformer } from '../../../src/worker/transcription/indic-conformer/load';
import { NemoMel } from '../../../src/worker/transcription/indic-conformer/features';
import { joinText } from '../../../src/worker/transcription/indic-conformer/tokens';
import { FIXTURE_DIMS } from '../../fixtures/indic-conformer/dims';
import { encoderModel } from '../../fixtures/indic-conformer/encoder';
import { ai4bharatRepo } from '../../fixtures/indic-conformer/external';
import { scriptRanges } from '../../fixtures/indic-conformer/vocab';
import { Weights } from '../../fixtures/whisper/weights';
import { SHARED_DIR } from '../../support/shared';
import { commitOf, startHub } from '../../support/hub-server';

const { onnx } = onnxProto;
const REPO = INDIC_SOURCES.fp32.repo!;
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const opTypes = (bytes: Uint8Array) => {
  const counts: Record<string, number> = {};
  for (const node of onnx.ModelProto.decode(bytes).graph!.node!) counts[node.opType!] = (counts[node.opType!] ?? 0) + 1;
  return counts;
};

/** AI4Bharat's layout with the tiny fixture: the fp32 encoder in external-data files, RNN-T graphs, a file nobody reads. */
const { files: repoFiles, fp32Inline, dataFiles, graph: fp32Graph } = ai4bharatRepo();

let hub: Awaited<ReturnType<typeof startHub>>;
let work: string;
let to: string;
let cache: string;
let out = '';
let err = '';
let manifest: FolderManifest;
let int8: Uint8Array;

async function vaani(args: string[]): Promise<number> {
  out = '';
  err = '';
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((out += String(chunk)), true));
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((err += String(chunk)), true));
  try {
    return await main(args);
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
}

const buildArgs = () => [
  'pull',
  'speech-stt-v1',
  '--indic',
  '--int8',
  '--to',
  to,
  '--cache',
  cache,
  '--host',
  hub.url,
  '--retries',
  '0',
];

beforeAll(async () => {
  hub = await startHub({ [REPO]: repoFiles });
  work = await mkdtemp(join(tmpdir(), 'vaani-indic-'));
  to = join(work, 'public/models');
  cache = join(work, 'cache');
  expect(await vaani(buildArgs()), err).toBe(0);
  const folder = join(to, 'speech-stt-v1-indic');
  manifest = parseFolderManifest(await readFile(join(folder, FOLDER_MANIFEST), 'utf8'), 'manifest');
  int8 = new Uint8Array(await readFile(join(folder, 'encoder.onnx')));
}, 60_000);
afterAll(async () => {
  await hub.close();
  await rm(work, { recursive: true, force: true });
});

async function features(seconds: number) {
  const audio = await decode(await readFile(`${SHARED_DIR}audio/jfk.flac`));
  const channel = audio.channelData[0]!;
  const ratio = audio.sampleRate / 16000;
  const samples = Float32Array.from(
    { length: Math.floor(seconds * 16000) },
    (_, i) => channel[Math.floor(i * ratio)] ?? 0,
  );
  return { samples, ...new NemoMel().extract(samples) };
}

describe('vaani pull speech-stt-v1 --indic --int8', () => {
  it("downloads AI4Bharat's fp32 export (only what the int8 path needs) and writes a self-contained folder with a manifest", async () => {
    const folder = join(to, 'speech-stt-v1-indic');
    expect(manifest.files.map((f) => f.name)).toEqual([
      'config.json',
      'ctc_decoder.onnx',
      'encoder.onnx',
      'language_masks.json',
      'vocab.json',
    ]);
    for (const file of manifest.files) {
      const bytes = new Uint8Array(await readFile(join(folder, file.name)));
      expect(file).toEqual({ name: file.name, size: bytes.byteLength, sha256: sha(bytes) });
    }
    expect((await readdir(folder)).sort()).toEqual([FOLDER_MANIFEST, ...manifest.files.map((f) => f.name)].sort());
    expect(manifest.dtypes).toEqual(['int8']);
    // The branch was resolved to the commit it named, and every source file is recorded with its SHA-256.
    expect(manifest.source).toEqual({ host: hub.url, repo: REPO, revision: commitOf(REPO) });
    const sources = manifest.built!.from;
    expect(sources.length).toBe(5 + dataFiles);
    for (const file of sources) expect(file.sha256).toBe(sha(repoFiles[file.name]!));
    expect(dataFiles).toBeGreaterThan(20);
    // Nothing of the RNN-T graphs or the TorchScript preprocessor was fetched.
    expect(hub.requests.filter((r) => /joint|rnnt|preprocessor/.test(r.path))).toEqual([]);
    // Self-contained: no external data left, weights inside.
    expect(externalDataFiles(int8)).toEqual([]);
    expect(externalDataFiles(fp32Graph).length).toBe(dataFiles);
    expect(out).toContain(
      `createVaani({ models: { 'speech-stt-v1': { indic: { baseURL: '/models/speech-stt-v1-indic/', dtype: 'int8' } } } });`,
    );
    // The 2.4 GB download goes once the int8 files are written; its manifest stays in the cache.
    const sourceFolder = join(cache, REPO.replace('/', '--'));
    expect(await readdir(join(sourceFolder, 'assets')).catch(() => [])).toEqual([]);
    expect(existsSync(join(sourceFolder, FOLDER_MANIFEST))).toBe(true);
  });

  it("has the fixture generator's own int8 node types, and its outputs match the fp32 encoder's within int8 error", async () => {
    const generatedInt8 = encoderModel({ ...FIXTURE_DIMS, dtype: 'int8' }, new Weights(1));
    const generated = opTypes(generatedInt8);
    const converted = opTypes(int8);
    // The fed graph has one Constant node the generator writes as an initializer; the converter
    // shares one DynamicQuantizeLinear among the MatMuls that read the same activation (as onnxruntime does).
    const { DynamicQuantizeLinear: sharedQuant, Constant, ...rest } = converted;
    const { DynamicQuantizeLinear: ownQuant, ...generatedRest } = generated;
    expect(Constant).toBe(1);
    expect(rest).toEqual(generatedRest);
    expect(rest.MatMulInteger).toBe(FIXTURE_DIMS.layers * 9 + 1);
    expect(sharedQuant).toBeGreaterThan(0);
    expect(sharedQuant).toBeLessThan(ownQuant!);
    const weights = onnx.ModelProto.decode(int8).graph!.initializer!.filter((t) => t.name!.endsWith('_quantized'));
    expect(weights.every((t) => t.dataType === onnx.TensorProto.DataType.INT8)).toBe(true);

    const { data, frames } = await features(4);
    const feeds = {
      audio_signal: new ortNode.Tensor('float32', data, [1, 80, frames]),
      length: new ortNode.Tensor('int64', BigInt64Array.of(BigInt(frames)), [1]),
    };
    const run = async (bytes: Uint8Array) => (await ortNode.InferenceSession.create(bytes)).run(feeds);
    const [reference, quantised] = [await run(fp32Inline), await run(int8)];
    expect(quantised.outputs!.dims).toEqual(reference.outputs!.dims);
    expect(quantised.encoded_lengths!.data).toEqual(reference.encoded_lengths!.data);
    const a = reference.outputs!.data as Float32Array;
    const b = quantised.outputs!.data as Float32Array;
    let diff = 0;
    let norm = 0;
    for (let i = 0; i < a.length; i++) {
      diff += (a[i]! - b[i]!) ** 2;
      norm += a[i]! ** 2;
    }
    const relative = Math.sqrt(diff / norm);
    // int8 moves the outputs a little (so it did quantise), never far.
    expect(relative).toBeGreaterThan(1e-4);
    expect(relative).toBeLessThan(0.05);
    // The generator's own int8 file holds the same weights quantised the same way: the same outputs.
    const own = (await run(generatedInt8)).outputs!.data as Float32Array;
    expect(Math.max(...own.map((v, i) => Math.abs(v - b[i]!)))).toBeLessThan(1e-4);
  });

  it("loads through IndicConformer's int8 path and transcribes in the language's script", async () => {
    const folder = join(to, 'speech-stt-v1-indic');
    const loader: FileLoader = {
      load: async (file) => new Uint8Array(await readFile(join(folder, file))),
      has: async (file) => manifest.files.some((f) => f.name === file),
    };
    const layout = (await findIndicLayout(loader, 'int8', true))!;
    expect(layout).toEqual({ prefix: '', encoder: 'encoder.onnx', rnnt: false });
    const model = await startIndicConformer(
      ortNode as unknown as Ort,
      loader,
      layout,
      'cpu' as never,
      await readConfig(loader),
    );
    const { samples } = await features(4);
    const { tokens } = await model.ctc(await model.encode(samples), 'ta');
    expect(tokens.length).toBeGreaterThan(5);
    const ranges = scriptRanges('ta');
    const text = joinText(tokens).replace(/\s/g, '');
    expect(text.length).toBeGreaterThan(5);
    expect(
      [...text].every((ch) => ranges.some(([lo, hi]) => ch.codePointAt(0)! >= lo && ch.codePointAt(0)! <= hi)),
    ).toBe(true);
  });

  it('a second build checks the source files against what the first recorded (trust on first use)', async () => {
    hub.tamper(REPO, 'config.json', new TextEncoder().encode(JSON.stringify({ model_type: 'iasr', SOS: 1 })));
    try {
      expect(await vaani(buildArgs())).toBe(1);
      expect(err).toMatch(/config\.json .*(SHA-256|bytes)/);
    } finally {
      hub.tamper(REPO, 'config.json', undefined);
    }
    const again = parseFolderManifest(
      await readFile(join(to, 'speech-stt-v1-indic', FOLDER_MANIFEST), 'utf8'),
      'manifest',
    );
    expect(again.files).toEqual(manifest.files);
  });
});

describe('HF_TOKEN', () => {
  it('is sent as a bearer token to the hub the command talks to, and to no other host', async () => {
    const seen: (string | undefined)[] = [];
    const servers = [0, 1].map(() => createServer((req, res) => (seen.push(req.headers.authorization), res.end('ok'))));
    const urls = await Promise.all(
      servers.map(
        (server) =>
          new Promise<string>((resolve) =>
            server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
          ),
      ),
    );
    try {
      const fetchImpl = hubFetch(urls[0]!, 'hf_secret');
      await (await fetchImpl(`${urls[0]}/api/models/x/tree/main`, { headers: { accept: 'application/json' } })).text();
      await (await fetchImpl(`${urls[1]}/elsewhere`)).text();
      expect(seen).toEqual(['Bearer hf_secret', undefined]);
      expect(hubFetch(urls[0]!, undefined)).toBe(fetch);
    } finally {
      for (const server of servers) server.close();
    }
  });
});
