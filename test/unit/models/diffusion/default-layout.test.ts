import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadDiffusion } from '../../../../src/worker/images/load';
import { diffusionFiles } from '../../../../src/common/layouts/diffusion';
import { clipTokenizerJson, PromptTokenizer } from '../../../../src/worker/images/tokenizer';
import { startDiffusion } from '../../../../src/worker/images/start';
import { ensureDefaultLayoutDiffusion, ensureLcmDiffusion } from '../../../fixtures/diffusion/ensure';
import { directoryLoader, maxAbsDiff } from '../encoder/support';
import { ort } from './node-ort';

/**
 * image-v1's default export (aislamov/lcm-dreamshaper-v7-onnx) keeps the UNet and VAE decoder
 * weights in `model.onnx_data` and ships CLIP's vocab.json + merges.txt without tokenizer.json:
 * the tiny LCM fixture written in that layout must make the very same image.
 */
describe('the default image export layout', () => {
  let lcm: string;
  let layout: string;
  beforeAll(async () => {
    lcm = await ensureLcmDiffusion();
    layout = await ensureDefaultLayoutDiffusion();
  });

  it('reads external data and the vocab/merges tokenizer: the same pixels as the one-file export', async () => {
    const prompt = 'A Warli painting of a village dance';
    const [reference, hub] = await Promise.all(
      [lcm, layout].map((dir) => loadDiffusion(ort, directoryLoader(dir), 'wasm')),
    );
    const expected = await reference!.generate({ prompt, seed: 11, steps: 4 });
    const image = await hub!.generate({ prompt, seed: 11, steps: 4 });
    expect(maxAbsDiff(image.rgba, expected.rgba)).toBe(0);
    expect(new Set(image.rgba).size).toBeGreaterThan(8);
  });

  it("builds CLIP's tokenizer from vocab.json + merges.txt with the same ids as tokenizer.json", async () => {
    const read = (file: string) => readFile(join(layout, 'tokenizer', file), 'utf8');
    const config = JSON.parse(await read('tokenizer_config.json')) as Record<string, unknown>;
    const built = clipTokenizerJson(
      JSON.parse(await read('vocab.json')) as Record<string, number>,
      await read('merges.txt'),
    );
    const original = JSON.parse(await readFile(join(lcm, 'tokenizer/tokenizer.json'), 'utf8')) as object;
    const [fromVocab, fromJson] = [built, original].map((json) => new PromptTokenizer(json, config));
    for (const prompt of ['a warli painting of a village dance', 'The  PEACOCK\ttree   art', ''])
      expect(fromVocab!.encode(prompt)).toEqual(fromJson!.encode(prompt));
    // CLIP splits punctuation off words (the fixture's tokenizer.json splits on spaces only).
    expect(fromVocab!.encode('tree, art!')).toEqual(fromJson!.encode('tree , art !'));
  });

  it('lists the files the engine reads (what ai.models.load and vaani pull fetch)', async () => {
    const names = (await diffusionFiles(directoryLoader(layout))).map((file) => file.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'unet/model.onnx',
        'unet/model.onnx_data',
        'vae_decoder/model.onnx_data',
        'text_encoder/model.onnx',
        'tokenizer/vocab.json',
        'tokenizer/merges.txt',
        'scheduler/scheduler_config.json',
        'vae_encoder/model.onnx',
      ]),
    );
    expect(names).not.toContain('tokenizer/tokenizer.json');
    expect(names).not.toContain('text_encoder/model.onnx_data');
  });

  it('counts external data in the WASM size check', async () => {
    const disk = directoryLoader(layout);
    const big = new Uint8Array(0);
    // The UNet's graph file stays small; its data file reports more than WASM holds.
    const loader = {
      has: disk.has,
      load: async (file: string) =>
        file === 'unet/model.onnx_data' ? ({ byteLength: 1.7 * 2 ** 30 } as Uint8Array) : big,
    };
    await expect(startDiffusion(loader, { backend: 'wasm' })).rejects.toMatchObject({
      code: 'model_too_large_for_wasm',
    });
  });
});
