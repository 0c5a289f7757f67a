import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import decode from 'audio-decode';
import * as ortNode from 'onnxruntime-node';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Ort } from '../../../src/backends/ort';
import { NemoMel } from '../../../src/models/indic-conformer/features';
import { findIndicLayout } from '../../../src/models/indic-conformer/files';
import { readConfig, startIndicConformer } from '../../../src/models/indic-conformer/load';
import type { IndicConformer } from '../../../src/models/indic-conformer/model';
import { joinText, joinWords } from '../../../src/models/indic-conformer/tokens';
import type { FileLoader } from '../../../src/store/loader';
import { ensureTinyIndicConformer } from '../../fixtures/indic-conformer/ensure';
import { scriptRanges } from '../../fixtures/indic-conformer/vocab';
import { SHARED_DIR } from '../../support/shared';

const dirLoader = (dir: string): FileLoader => ({
  load: async (file) => new Uint8Array(await readFile(join(dir, file))),
  has: async (file) => existsSync(join(dir, file)),
});

async function speech(seconds: number): Promise<Float32Array> {
  const audio = await decode(await readFile(`${SHARED_DIR}audio/jfk.flac`));
  const channel = audio.channelData[0]!;
  const ratio = audio.sampleRate / 16000;
  return Float32Array.from({ length: Math.floor(seconds * 16000) }, (_, i) => channel[Math.floor(i * ratio)] ?? 0);
}

/**
 * The second implementation: the published inference script's steps as a plain loop over
 * onnxruntime-node sessions, names written out as the script writes them.
 */
class Reference {
  constructor(
    private readonly dir: string,
    private readonly vocab: Record<string, string[]>,
    private readonly masks: Record<string, boolean[]>,
  ) {}

  private session(name: string) {
    return readFile(join(this.dir, 'assets', `${name}.onnx`)).then((bytes) => ortNode.InferenceSession.create(bytes));
  }

  async encode(samples: Float32Array) {
    const { data, frames } = new NemoMel().extract(samples);
    const encoder = await this.session('encoder');
    const out = await encoder.run({
      audio_signal: new ortNode.Tensor('float32', data, [1, 80, frames]),
      length: new ortNode.Tensor('int64', BigInt64Array.of(BigInt(frames)), [1]),
    });
    return { outputs: out.outputs!, length: Number(out.encoded_lengths!.data[0]) };
  }

  async ctc(samples: Float32Array, language: string): Promise<{ ids: number[]; text: string }> {
    const { outputs } = await this.encode(samples);
    const ctc = await this.session('ctc_decoder');
    const logprobs = (await ctc.run({ encoder_output: outputs })).logprobs!;
    const [, time, width] = logprobs.dims as number[];
    const columns = this.masks[language]!.flatMap((on, i) => (on ? [i] : []));
    const data = logprobs.data as Float32Array;
    const path: number[] = [];
    for (let t = 0; t < time!; t++) {
      const row = columns.map((c) => data[t * width! + c]!);
      path.push(row.indexOf(Math.max(...row)));
    }
    const collapsed = path.filter((id, i) => i === 0 || id !== path[i - 1]);
    const ids = collapsed.filter((id) => id !== 256 && id !== 0);
    return {
      ids,
      text: ids
        .map((id) => this.vocab[language]![id])
        .join('')
        .replaceAll('\u2581', ' ')
        .trim(),
    };
  }

  async rnnt(samples: Float32Array, language: string): Promise<number[]> {
    const { outputs } = await this.encode(samples);
    const [, d, time] = outputs.dims as number[];
    const hidden = outputs.data as Float32Array;
    const transposed = new Float32Array(d! * time!);
    for (let c = 0; c < d!; c++) for (let t = 0; t < time!; t++) transposed[t * d! + c] = hidden[c * time! + t]!;
    const [jointEnc, decoder, jointPred, preNet, postNet] = await Promise.all(
      ['joint_enc', 'rnnt_decoder', 'joint_pred', 'joint_pre_net', `joint_post_net_${language}`].map((n) =>
        this.session(n),
      ),
    );
    const f = (await jointEnc!.run({ input: new ortNode.Tensor('float32', transposed, [1, time!, d!]) })).output!;
    const width = f.dims[2]!;
    const zeros = () => new ortNode.Tensor('float32', new Float32Array(2 * 24), [2, 1, 24]);
    let state: ortNode.Tensor[] = [zeros(), zeros()];
    const hyp = [5632];
    for (let t = 0; t < time!; t++) {
      for (let symbols = 0; symbols < 10; symbols++) {
        const out = await decoder!.run({
          targets: new ortNode.Tensor('int32', Int32Array.of(hyp.at(-1)!), [1, 1]),
          target_length: new ortNode.Tensor('int32', Int32Array.of(1), [1]),
          'states.1': state[0]!,
          'onnx::Slice_3': state[1]!,
        });
        const g = (
          await jointPred!.run({ input: new ortNode.Tensor('float32', out.outputs!.data as Float32Array, [1, 1, 24]) })
        ).output!;
        const sum = Float32Array.from(g.data as Float32Array, (v, i) => v + (f.data as Float32Array)[t * width + i]!);
        const pre = (await preNet!.run({ input: new ortNode.Tensor('float32', sum, [1, 1, width]) })).output!;
        const logits = [...((await postNet!.run({ input: pre })).output!.data as Float32Array)];
        const token = logits.indexOf(Math.max(...logits));
        if (token === 256) break;
        state = [out.states!, out['162']!];
        hyp.push(token);
      }
    }
    return hyp.slice(1).filter((id) => id !== 0);
  }
}

const inScript = (text: string, language: string) => {
  const ranges = scriptRanges(language);
  return [...text].every(
    (ch) => ch === ' ' || ranges.some(([a, b]) => ch.codePointAt(0)! >= a && ch.codePointAt(0)! <= b),
  );
};

describe('IndicConformer runtime on the generated fixture', () => {
  let model: IndicConformer;
  let reference: Reference;
  let samples: Float32Array;

  beforeAll(async () => {
    const dir = await ensureTinyIndicConformer();
    const loader = dirLoader(dir);
    const layout = (await findIndicLayout(loader, 'fp32', false))!;
    expect(layout).toEqual({ prefix: 'assets/', encoder: 'assets/encoder.onnx', rnnt: true });
    // onnxruntime-node names its CPU provider 'cpu'.
    model = await startIndicConformer(
      ortNode as unknown as Ort,
      loader,
      layout,
      'cpu' as never,
      await readConfig(loader),
    );
    const json = async (file: string) => JSON.parse(await readFile(join(dir, 'assets', file), 'utf8'));
    reference = new Reference(dir, await json('vocab.json'), await json('language_masks.json'));
    samples = await speech(4);
  });

  for (const language of ['hi', 'ta', 'sat']) {
    it(`CTC (${language}): the same tokens and text as the plain loop, in the language's script`, async () => {
      const encoded = await model.encode(samples);
      expect(encoded.frames).toBe(Math.floor((Math.floor(64000 / 160) + 1 - 1) / 4) + 1);
      expect(encoded.frameSeconds).toBeCloseTo(0.04, 6);
      const { tokens, avgLogprob } = await model.ctc(encoded, language);
      const expected = await reference.ctc(samples, language);
      expect(tokens.map((t) => t.id)).toEqual(expected.ids);
      expect(tokens.length).toBeGreaterThan(5);
      expect(joinText(tokens)).toBe(expected.text);
      expect(inScript(expected.text, language)).toBe(true);
      expect(expected.text).not.toContain('\ufffd');
      expect(avgLogprob).toBeLessThan(0);
      const words = joinWords(tokens, encoded.frameSeconds, 1.5);
      expect(words.map((w) => w.word).join(' ')).toBe(expected.text);
      for (const [i, word] of words.entries()) {
        expect(word.start).toBeGreaterThanOrEqual(1.5);
        expect(word.end).toBeGreaterThan(word.start);
        expect(word.end).toBeLessThanOrEqual(1.5 + 4 + 0.04);
        if (i > 0) expect(word.start).toBeGreaterThanOrEqual(words[i - 1]!.end);
      }
    });
  }

  for (const language of ['hi', 'sat']) {
    it(`RNN-T greedy (${language}): the same tokens as the published script's loop`, async () => {
      const encoded = await model.encode(samples);
      const tokens = await model.rnnt(encoded, language);
      expect(tokens.map((t) => t.id)).toEqual(await reference.rnnt(samples, language));
      expect(tokens.length).toBeGreaterThan(0);
      expect(inScript(joinText(tokens), language)).toBe(true);
    });
  }
});
