/**
 * Writes the fit bench's model folders before the bench page opens: the default products' tiny
 * fixtures in their real layouts (chat-v2 as a q8 `onnx/model_quantized.onnx` export, IndicConformer
 * and Whisper for speech-stt-v1, an XLM-R encoder for embed-v1) and the eSpeak plug-in, each copied
 * under test/.fixtures/bench-store/fit/<id>/ (what bench/remote.mjs serves over its paced link) with
 * the vaani-manifest.json `npx vaani pull` writes (every file's size and SHA-256).
 */
import { createHash } from 'node:crypto';
import { cp, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FOLDER_MANIFEST, type FolderManifest } from '../../src/common/weights';
import { ensureEncoderFixture } from '../../test/fixtures/encoder/fixture-dir';
import { tinyXlmr } from '../../test/fixtures/encoder/spec';
import { ensureTinyIndicConformer } from '../../test/fixtures/indic-conformer/ensure';
import { ensureDecoderFixture } from '../../test/fixtures/llm/fixture-dir';
import { tinyQwen2 } from '../../test/fixtures/llm/spec';
import { ensureTinyWhisper } from '../../test/fixtures/whisper/ensure';

const ROOT = new URL('../../test/.fixtures/bench-store/fit/', import.meta.url).pathname;
const ESPEAK = new URL('../../node_modules/@echogarden/espeak-ng-emscripten/', import.meta.url).pathname;

async function listFiles(dir: string, under = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(join(dir, under), { withFileTypes: true })) {
    const path = under ? `${under}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await listFiles(dir, path)));
    else if (entry.name !== 'fixture.json' && entry.name !== FOLDER_MANIFEST) out.push(path);
  }
  return out;
}

/** Copies `files` of `from` (all but the fixture's own record, when not given) to fit/<name>/ with a manifest for `model`. */
async function folder(name: string, model: string, repo: string, dtype: string, from: string, files?: string[]) {
  const dir = join(ROOT, name);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const names = files ?? (await listFiles(from));
  for (const file of names) await cp(join(from, file), join(dir, file), { recursive: true });
  const manifest: FolderManifest = {
    vaani: 1,
    model,
    source: { host: 'https://huggingface.co', repo, revision: 'main' },
    dtypes: [dtype],
    files: await Promise.all(
      names.map(async (file) => ({
        name: file,
        size: (await stat(join(dir, file))).size,
        sha256: createHash('sha256')
          .update(await readFile(join(dir, file)))
          .digest('hex'),
      })),
    ),
  };
  await writeFile(join(dir, FOLDER_MANIFEST), JSON.stringify(manifest));
  const bytes = manifest.files.reduce((sum, f) => sum + f.size, 0);
  console.log(`fit: ${name} ${(bytes / 1e6).toFixed(1)} MB in ${names.length} files`);
}

const chat = await ensureDecoderFixture('fit-qwen2-q8', { ...tinyQwen2, dtypes: ['q8'] });
await folder('chat-v2', 'chat-v2', 'onnx-community/Qwen3-0.6B-ONNX', 'q8', chat.dir);
await folder(
  'indic',
  'speech-stt-v1',
  'ai4bharat/indic-conformer-600m-multilingual',
  'fp32',
  await ensureTinyIndicConformer(),
);
await folder('whisper', 'speech-stt-v1', 'onnx-community/whisper-base', 'fp32', await ensureTinyWhisper());
const encoder = await ensureEncoderFixture('tiny-xlmr', tinyXlmr);
await folder('embed-v1', 'embed-v1', 'Xenova/multilingual-e5-small', 'fp32', encoder.dir);
await folder('espeak-ng', 'espeak-ng', 'echogarden/espeak-ng-emscripten', 'wasm', ESPEAK, [
  'espeak-ng.js',
  'espeak-ng.data',
]);
