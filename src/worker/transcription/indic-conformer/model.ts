import type { Ort, OrtSession } from '../../../common/backends/ort';
import { ctcGreedy, type CtcResult } from './ctc';
import type { NemoMel } from './features';
import { rnntGreedy, type RnntModel } from './rnnt';
import type { TimedToken } from './tokens';
import type { IndicVocabulary, LanguageVocabulary } from './vocab';

type Tensor = import('onnxruntime-web').Tensor;
type Meta = OrtSession['inputMetadata'][number];

/** What config.json says (all optional; the published script's defaults otherwise). */
export interface IndicConformerConfig {
  /** Prediction network's first input (SOS, 5632 in the published config). */
  sos: number;
  maxSymbols: number;
  predLayers: number;
  predHidden: number;
  /** Seconds per encoder frame; derived from the lengths when the config does not say. */
  frameSeconds?: number;
}

export interface RnntSessions {
  decoder: OrtSession;
  jointEnc: OrtSession;
  jointPred: OrtSession;
  preNet: OrtSession;
  postNet(language: string): Promise<OrtSession>;
}

/** One window through the encoder: its hidden states [1, d, T] and valid frames. */
export interface Encoded {
  hidden: Tensor;
  frames: number;
  frameSeconds: number;
}

const isFloat = (meta: Meta) => !meta.isTensor || meta.type.startsWith('float');
const rank = (meta: Meta) => (meta.isTensor ? meta.shape.length : 0);

/** The one input or output `pick` selects, by metadata (names differ between exports). */
function pick(list: readonly Meta[], test: (meta: Meta) => boolean, what: string): Meta {
  const found = list.find(test);
  if (!found)
    throw new Error(`The IndicConformer ${what} was not found (graph has ${list.map((m) => m.name).join(', ')}).`);
  return found;
}

/**
 * IndicConformer on onnxruntime (web in the page, node in tests): features → encoder → the CTC head
 * or the RNN-T networks, with every input and output found by type and rank from the sessions.
 */
export class IndicConformer {
  constructor(
    private readonly ort: Ort,
    readonly mel: NemoMel,
    readonly vocabulary: IndicVocabulary,
    readonly config: IndicConformerConfig,
    private readonly encoder: OrtSession,
    private readonly ctcHead: OrtSession,
    readonly rnntSessions?: RnntSessions,
  ) {}

  private vocab(language: string): LanguageVocabulary {
    const vocab = this.vocabulary.get(language);
    if (!vocab) throw new Error(`This IndicConformer model has no vocabulary for '${language}'.`);
    return vocab;
  }

  private int(meta: Meta, values: number[], dims: number[]): Tensor {
    return meta.isTensor && meta.type === 'int32'
      ? new this.ort.Tensor('int32', Int32Array.from(values), dims)
      : new this.ort.Tensor('int64', BigInt64Array.from(values.map(BigInt)), dims);
  }

  async encode(samples: Float32Array): Promise<Encoded> {
    const { data, frames } = this.mel.extract(samples);
    const inputs = this.encoder.inputMetadata;
    const signal = pick(inputs, isFloat, 'encoder features input');
    const length = pick(inputs, (m) => !isFloat(m), 'encoder length input');
    const result = await this.encoder.run({
      [signal.name]: new this.ort.Tensor('float32', data, [1, this.mel.config.features, frames]),
      [length.name]: this.int(length, [frames], [1]),
    });
    const outputs = this.encoder.outputMetadata;
    const hidden = result[pick(outputs, (m) => isFloat(m) && rank(m) !== 1, 'encoder output').name]!;
    const lengthOut = outputs.find((m) => !isFloat(m));
    const valid = lengthOut ? Number(result[lengthOut.name]!.data[0]) : hidden.dims[2]!;
    const { hopLength, sampleRate } = this.mel.config;
    const factor = 2 ** Math.round(Math.log2(frames / Math.max(1, valid)));
    return { hidden, frames: valid, frameSeconds: this.config.frameSeconds ?? (factor * hopLength) / sampleRate };
  }

  async ctc(encoded: Encoded, language: string): Promise<CtcResult> {
    const vocab = this.vocab(language);
    const input = pick(this.ctcHead.inputMetadata, isFloat, 'CTC head input');
    const result = await this.ctcHead.run({ [input.name]: encoded.hidden });
    const logprobs = result[pick(this.ctcHead.outputMetadata, isFloat, 'CTC head output').name]!;
    return ctcGreedy(logprobs.data as Float32Array, encoded.frames, logprobs.dims[2]!, vocab);
  }

  async rnnt(encoded: Encoded, language: string, signal?: AbortSignal): Promise<TimedToken[]> {
    const sessions = this.rnntSessions;
    if (!sessions) throw new Error('This IndicConformer source has no RNN-T graphs.');
    const vocab = this.vocab(language);
    const postNet = await sessions.postNet(language);
    const { ort, config } = this;
    const [, d, time] = encoded.hidden.dims as [number, number, number];
    const hidden = encoded.hidden.data as Float32Array;
    const transposed = new Float32Array(d * time);
    for (let c = 0; c < d; c++) for (let t = 0; t < time; t++) transposed[t * d + c] = hidden[c * time + t]!;
    const run1 = async (session: OrtSession, input: Tensor) =>
      (await session.run({ [session.inputNames[0]!]: input }))[session.outputNames[0]!]!;
    const jointEnc = await run1(sessions.jointEnc, new ort.Tensor('float32', transposed, [1, time, d]));
    const joint = jointEnc.data as Float32Array;
    const width = jointEnc.dims[2]!;

    const decoderIn = sessions.decoder.inputMetadata;
    const targets = pick(decoderIn, (m) => !isFloat(m) && rank(m) === 2, 'prediction network targets');
    const targetLength = decoderIn.find((m) => !isFloat(m) && rank(m) === 1);
    const [hName, cName] = decoderIn.filter(isFloat).map((m) => m.name);
    const outNames = sessions.decoder.outputMetadata.filter(isFloat).map((m) => m.name);
    const stateDims = [config.predLayers, 1, config.predHidden];
    const zeros = () => new ort.Tensor('float32', new Float32Array(config.predLayers * config.predHidden), stateDims);
    type State = { h: Tensor; c: Tensor };
    const model: RnntModel<State> = {
      sos: config.sos,
      initial: { h: zeros(), c: zeros() },
      predict: async (token, state) => {
        const result = await sessions.decoder.run({
          [targets.name]: this.int(targets, [token], [1, 1]),
          ...(targetLength ? { [targetLength.name]: this.int(targetLength, [1], [1]) } : {}),
          [hName!]: state.h,
          [cName!]: state.c,
        });
        const [out, h, c] = outNames.map((name) => result[name]!);
        const g = out!.data as Float32Array;
        return { output: g, state: { h: h!, c: c! } };
      },
      joint: async (frame, prediction) => {
        const g = await run1(sessions.jointPred, new ort.Tensor('float32', prediction, [1, 1, prediction.length]));
        const sum = Float32Array.from(g.data as Float32Array, (v, i) => v + joint[frame * width + i]!);
        const pre = await run1(sessions.preNet, new ort.Tensor('float32', sum, [1, 1, width]));
        return (await run1(postNet, pre)).data as Float32Array;
      },
    };
    return rnntGreedy(model, encoded.frames, vocab, config.maxSymbols, signal);
  }
}
