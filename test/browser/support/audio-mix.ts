import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { encodeWav } from '../../../src/common/audio/encode/wav';
import { decodeMono } from '../../../src/common/audio/mono';
import { readWav } from './wav';
import { SHARED_DIR } from '../../support/shared';

/** Test-side audio: real clips, noise at a known SNR, multipart uploads to the in-page service. */

export const SHARED_AUDIO = `${SHARED_DIR}audio`;

export async function loadClip(name: string, sampleRate?: number) {
  return decodeMono(new Uint8Array(readFileSync(`${SHARED_AUDIO}/${name}`)), sampleRate);
}

/** The encodings browsers and phones upload, made from a shared clip with ffmpeg at test time. */
export const ENCODINGS = {
  'ogg-vorbis': { extension: 'ogg', codec: 'libvorbis' },
  'ogg-opus': { extension: 'opus', codec: 'libopus' },
  'webm-opus': { extension: 'webm', codec: 'libopus' },
  'm4a-aac': { extension: 'm4a', codec: 'aac' },
} as const;

/** Encodes a shared clip into test/.fixtures/audio/ (gitignored) and returns the file's bytes. */
export function encodeClip(name: string, encoding: keyof typeof ENCODINGS): Uint8Array {
  const { extension, codec } = ENCODINGS[encoding];
  const folder = new URL('../../.fixtures/audio/', import.meta.url).pathname;
  mkdirSync(folder, { recursive: true });
  const path = `${folder}${name}.${encoding}.${extension}`;
  // Encoded beside its place and renamed into it: a spec in another worker never reads it half-written.
  const staging = `${folder}.${process.pid}.${name}.${encoding}.${extension}`;
  execFileSync('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-i',
    `${SHARED_AUDIO}/${name}`,
    '-c:a',
    codec,
    staging,
  ]);
  renameSync(staging, path);
  return new Uint8Array(readFileSync(path));
}

/** A small seeded generator (mulberry32), so every run mixes the same noise. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function whiteNoise(length: number, seed = 1): Float32Array {
  const next = random(seed);
  return Float32Array.from({ length }, () => next() * 2 - 1);
}

/** Pink (1/f) noise: white noise through Paul Kellet's economy filter. */
export function pinkNoise(length: number, seed = 2): Float32Array {
  const white = whiteNoise(length, seed);
  let b0 = 0;
  let b1 = 0;
  let b2 = 0;
  return white.map((w) => {
    b0 = 0.99765 * b0 + w * 0.099046;
    b1 = 0.963 * b1 + w * 0.2965164;
    b2 = 0.57 * b2 + w * 1.0526913;
    return b0 + b1 + b2 + w * 0.1848;
  });
}

export const power = (x: Float32Array) => x.reduce((sum, v) => sum + v * v, 0) / Math.max(1, x.length);
export const db = (ratio: number) => 10 * Math.log10(ratio);

/** `noise` scaled so that speech power over noise power (measured over `speech`) is `snrDb`. */
export function scaleNoise(speech: Float32Array, noise: Float32Array, snrDb: number): Float32Array {
  const gain = Math.sqrt(power(speech) / power(noise.subarray(0, speech.length)) / 10 ** (snrDb / 10));
  return noise.map((v) => v * gain);
}

/** SNR of an estimate of `reference`, in dB: reference power over error power. */
export const snr = (reference: Float32Array, estimate: Float32Array) =>
  db(power(reference) / power(estimate.map((v, i) => v - reference[i]!)));

export const add = (a: Float32Array, b: Float32Array) => a.map((v, i) => v + (b[i] ?? 0));

export const wavBase64 = (samples: Float32Array, sampleRate: number) =>
  Buffer.from(encodeWav({ samples, sampleRate })).toString('base64');

export interface Upload {
  /** Base64 file bytes; null sends no file field. */
  file: string | null;
  filename?: string;
  fields?: Record<string, string>;
}

export interface Answer {
  status: number;
  type: string | null;
  body: string;
}

/** Starts a Vaani in the harness page (after openHarness). */
export const startVaani = (page: Page) =>
  page.evaluate(() => {
    (window as unknown as { vaani: unknown }).vaani = window.Vaani.createVaani({ auth: 'optional' });
  });

/** POSTs a multipart upload to the in-page service with plain fetch + FormData; the body comes back as base64. */
export function post(page: Page, path: string, upload: Upload): Promise<Answer> {
  return page.evaluate(
    async ({ path, upload }) => {
      const vaani = (window as unknown as { vaani: { fetch: typeof fetch } }).vaani;
      const form = new FormData();
      if (upload.file !== null) {
        const bytes = Uint8Array.from(atob(upload.file), (c) => c.charCodeAt(0));
        form.append('file', new Blob([bytes]), upload.filename ?? 'audio.wav');
      }
      for (const [key, value] of Object.entries(upload.fields ?? {})) form.append(key, value);
      const response = await vaani.fetch(path, { method: 'POST', body: form });
      const bytes = new Uint8Array(await response.arrayBuffer());
      let binary = '';
      for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return { status: response.status, type: response.headers.get('content-type'), body: btoa(binary) };
    },
    { path, upload },
  );
}

export function audioOf(answer: Answer) {
  const bytes = new Uint8Array(Buffer.from(answer.body, 'base64'));
  if (answer.status !== 200) throw new Error(`HTTP ${answer.status}: ${Buffer.from(bytes).toString()}`);
  return readWav(bytes);
}

export const errorOf = (answer: Answer) =>
  JSON.parse(Buffer.from(answer.body, 'base64').toString()) as {
    error: { code: string | null; type: string; message: string; param: string | null };
  };
