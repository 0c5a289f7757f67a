import { readFileSync } from 'node:fs';
import { Tokenizer } from '@huggingface/tokenizers';
import * as ort from 'onnxruntime-node';
import { SeededNoise } from '../../../../src/models/diffusion/noise';

type Kind = 'euler' | 'ancestral' | 'lcm';

/** ᾱ for SD's scaled-linear betas, written out again (float64). */
function alphasCumprod(): number[] {
  const out: number[] = [];
  let product = 1;
  for (let t = 0; t < 1000; t++) {
    product *= 1 - (Math.sqrt(0.00085) + (t / 999) * (Math.sqrt(0.012) - Math.sqrt(0.00085))) ** 2;
    out.push(product);
  }
  return out;
}

/** Timesteps as diffusers' EulerDiscrete (trailing) and LCM (50 original steps) schedule them. */
function schedule(kind: Kind, steps: number): number[] {
  if (kind !== 'lcm') return Array.from({ length: steps }, (_, i) => Math.round(1000 - (i * 1000) / steps) - 1);
  const origin = Array.from({ length: 50 }, (_, i) => (i + 1) * 20 - 1).reverse();
  return Array.from({ length: steps }, (_, i) => origin[Math.floor((i * 50) / steps)]!);
}

/**
 * A second implementation of text → image over the same ONNX files: onnxruntime-node sessions,
 * the tokenizer called directly, the samplers restated from diffusers' step functions. Only the
 * seeded noise source is shared (it defines what "the same seed" means).
 */
export async function referenceImage(
  dir: string,
  prompt: string,
  seed: number,
  kind: Kind,
  steps: number,
): Promise<Uint8Array> {
  const json = (file: string) => JSON.parse(readFileSync(`${dir}/${file}`, 'utf8'));
  const tokenizer = new Tokenizer(json('tokenizer/tokenizer.json'), json('tokenizer/tokenizer_config.json'));
  const ids = tokenizer.encode(prompt).ids.slice(0, 77);
  while (ids.length < 77) ids.push(tokenizer.token_to_id('<|endoftext|>')!);
  const text = await ort.InferenceSession.create(`${dir}/text_encoder/model.onnx`);
  const unet = await ort.InferenceSession.create(`${dir}/unet/model.onnx`);
  const vae = await ort.InferenceSession.create(`${dir}/vae_decoder/model.onnx`);
  const context = (await text.run({ input_ids: new ort.Tensor('int32', Int32Array.from(ids), [1, 77]) }))
    .last_hidden_state!;
  const ac = alphasCumprod();
  const sigma = (t: number) => Math.sqrt((1 - ac[t]!) / ac[t]!);
  const ts = schedule(kind, steps);
  const noise = new SeededNoise(seed);
  const size = 4 * 8 * 8;
  let x = Array.from(noise.normal(size), (v) => (kind === 'lcm' ? v : v * sigma(ts[0]!)));
  for (let i = 0; i < ts.length; i++) {
    const t = ts[i]!;
    const s = sigma(t);
    const input = kind === 'lcm' ? x : x.map((v) => v / Math.sqrt(s * s + 1));
    const eps = (
      await unet.run({
        sample: new ort.Tensor('float32', Float32Array.from(input), [1, 4, 8, 8]),
        timestep: new ort.Tensor('int64', BigInt64Array.of(BigInt(t)), [1]),
        encoder_hidden_states: context,
      })
    ).out_sample!.data as Float32Array;
    const last = i === ts.length - 1;
    if (kind === 'lcm') {
      const a = ac[t]!;
      const c = (t * 10) ** 2 + 0.25;
      const denoised = x.map(
        (v, j) => ((t * 10) / Math.sqrt(c)) * ((v - Math.sqrt(1 - a) * eps[j]!) / Math.sqrt(a)) + (0.25 / c) * v,
      );
      const next = last ? 1 : ac[ts[i + 1]!]!;
      const fresh = last ? [] : noise.normal(size);
      x = last ? denoised : denoised.map((v, j) => Math.sqrt(next) * v + Math.sqrt(1 - next) * fresh[j]!);
    } else {
      const next = last ? 0 : sigma(ts[i + 1]!);
      const up = kind === 'ancestral' ? Math.sqrt((next * next * (s * s - next * next)) / (s * s)) : 0;
      const down = Math.sqrt(next * next - up * up);
      const fresh = kind === 'ancestral' && !last ? noise.normal(size) : new Float32Array(size);
      x = x.map((v, j) => v + (down - s) * eps[j]! + fresh[j]! * up);
    }
  }
  const pixels = (
    await vae.run({
      latent_sample: new ort.Tensor(
        'float32',
        Float32Array.from(x, (v) => v / 0.18215),
        [1, 4, 8, 8],
      ),
    })
  ).sample!.data as Float32Array;
  const plane = 64 * 64;
  const rgba = new Uint8Array(plane * 4);
  for (let p = 0; p < plane; p++) {
    for (let ch = 0; ch < 3; ch++)
      rgba[p * 4 + ch] = Math.round(Math.min(1, Math.max(0, pixels[ch * plane + p]! / 2 + 0.5)) * 255);
    rgba[p * 4 + 3] = 255;
  }
  return rgba;
}
