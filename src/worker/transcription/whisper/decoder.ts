import type { Ort, OrtSession } from '../../../common/backends/ort';
import { float16ToFloat32 } from '../../../common/float16';
import { checkpoint } from '../../../protocol/cancel';
import type { WhisperConfig } from './config';
import { applyWhisperRules, logSumExp, pickToken } from './logits';
import { loopCut } from './repetition';

type Tensor = import('onnxruntime-web').Tensor;

export interface DecodeRequest {
  /** Prompt tokens: optional previous text, then `<|startoftranscript|>`, language, task, maybe `<|notimestamps|>`. */
  prefix: number[];
  timestamps: boolean;
  temperature: number;
  /** Read before every step, after a yield that lets a cancel arrive: an aborted signal throws its reason. */
  signal: AbortSignal;
  /** Called after every step (the worker tells its host it is still working). */
  progress?(): void;
}

export interface DecodeResult {
  /** Generated tokens after the prefix, end-of-text dropped. */
  tokens: number[];
  /** Log-probability of each generated token (end-of-text included) under the rules. */
  logprobs: number[];
  /** Probability of `<|nospeech|>` right after `<|startoftranscript|>`. */
  noSpeechProb: number;
  /** Generation was stopped in a repetition loop; `tokens` keep the loop's first copy. */
  looped: boolean;
}

/** Float32 values of a float32 or float16 tensor. */
async function floats(tensor: Tensor): Promise<Float32Array> {
  const data = await tensor.getData();
  if (data instanceof Float32Array) return data;
  if (data instanceof Uint16Array) return float16ToFloat32(data);
  return Float32Array.from(data as ArrayLike<number>);
}

/**
 * The encoder and the merged decoder of one Whisper export, run with the KV cache. Tensors are
 * disposed as soon as they are replaced (on WebGPU they hold GPU buffers until then).
 */
export class WhisperDecoder {
  private readonly cacheType: 'float32' | 'float16';

  constructor(
    private readonly ort: Ort,
    private readonly encoder: OrtSession,
    private readonly decoder: OrtSession,
    readonly config: WhisperConfig,
  ) {
    const past = decoder.inputMetadata.find((input) => input.name === 'past_key_values.0.decoder.key');
    this.cacheType = past && past.isTensor && past.type === 'float16' ? 'float16' : 'float32';
  }

  /** input_features [1, mels, 3000] → last_hidden_state. */
  async encode(features: Float32Array): Promise<Tensor> {
    const input = new this.ort.Tensor('float32', features, [
      1,
      this.config.melBins,
      features.length / this.config.melBins,
    ]);
    const output = await this.encoder.run({ input_features: input });
    return output.last_hidden_state!;
  }

  private emptyCache(): Record<string, Tensor> {
    const { decoderLayers, heads, headDim } = this.config;
    const empty = () =>
      new this.ort.Tensor(this.cacheType, this.cacheType === 'float16' ? new Uint16Array(0) : new Float32Array(0), [
        1,
        heads,
        0,
        headDim,
      ]);
    const feeds: Record<string, Tensor> = {};
    for (let i = 0; i < decoderLayers; i++) {
      for (const part of ['decoder.key', 'decoder.value', 'encoder.key', 'encoder.value'])
        feeds[`past_key_values.${i}.${part}`] = empty();
    }
    return feeds;
  }

  private ids(tokens: number[]): Tensor {
    return new this.ort.Tensor('int64', BigInt64Array.from(tokens, BigInt), [1, tokens.length]);
  }

  /**
   * One decoder pass over `tokens` with the cache so far; returns the logits of every position and
   * the next cache. Cached steps fetch only the logits and the self-attention cache (the cross-attention
   * one is kept from the first step) and, while the export allows it, pass a one-frame stand-in for
   * encoder_hidden_states, which the cached branch does not read: megabytes less copied per token.
   */
  private async step(tokens: number[], encoded: Tensor, cache: Record<string, Tensor> | undefined) {
    const feeds: Record<string, Tensor> = {
      input_ids: this.ids(tokens),
      encoder_hidden_states: encoded,
      use_cache_branch: new this.ort.Tensor('bool', Uint8Array.of(cache ? 1 : 0), [1]),
      ...(cache ?? this.emptyCache()),
    };
    const output = cache ? await this.cachedRun(feeds, encoded) : await this.decoder.run(feeds);
    const next: Record<string, Tensor> = {};
    for (let i = 0; i < this.config.decoderLayers; i++) {
      for (const part of ['decoder.key', 'decoder.value', 'encoder.key', 'encoder.value']) {
        const name = `past_key_values.${i}.${part}`;
        const keepFirst = cache && part.startsWith('encoder');
        next[name] = keepFirst ? cache[name]! : output[`present.${i}.${part}`]!;
        if (cache && !keepFirst) cache[name]!.dispose();
      }
    }
    const logits = output.logits!;
    const values = await floats(logits);
    logits.dispose();
    return { logits: values, vocab: logits.dims[2]!, cache: next };
  }

  private slimEncoderInput: boolean | undefined;

  private async cachedRun(feeds: Record<string, Tensor>, encoded: Tensor) {
    const fetches = ['logits'];
    for (let i = 0; i < this.config.decoderLayers; i++)
      fetches.push(`present.${i}.decoder.key`, `present.${i}.decoder.value`);
    if (this.slimEncoderInput !== false && encoded.location === 'cpu') {
      const width = encoded.dims[2]!;
      const slim = new this.ort.Tensor(
        encoded.type as 'float32',
        encoded.type === 'float16' ? new Uint16Array(width) : new Float32Array(width),
        [1, 1, width],
      );
      try {
        const output = await this.decoder.run({ ...feeds, encoder_hidden_states: slim }, fetches);
        this.slimEncoderInput = true;
        return output;
      } catch (error) {
        if (this.slimEncoderInput) throw error;
        this.slimEncoderInput = false;
      }
    }
    return this.decoder.run(feeds, fetches);
  }

  /** Probabilities of each language token after `<|startoftranscript|>`. */
  async languageProbabilities(encoded: Tensor): Promise<Map<string, number>> {
    const { logits, cache } = await this.step([this.config.ids.sot], encoded, undefined);
    for (const tensor of Object.values(cache)) tensor.dispose();
    const languages = [...this.config.languages];
    const restricted = Float32Array.from(languages, ([, id]) => logits[id]!);
    const logSum = logSumExp(restricted);
    return new Map(languages.map(([code], i) => [code, Math.exp(restricted[i]! - logSum)]));
  }

  /** Generates after `prefix` until end-of-text or the length limit. */
  async decode(encoded: Tensor, request: DecodeRequest): Promise<DecodeResult> {
    const { config } = this;
    const tokens: number[] = [];
    const logprobs: number[] = [];
    let noSpeechProb = 0;
    let looped = false;
    const isText = (token: number) => token < config.ids.eot;
    let cache: Record<string, Tensor> | undefined;
    let input = request.prefix;
    while (request.prefix.length + tokens.length < config.maxLength) {
      await checkpoint(request.signal);
      const result = await this.step(input, encoded, cache);
      cache = result.cache;
      if (tokens.length === 0 && config.ids.noSpeech !== undefined) {
        const sotAt = request.prefix.lastIndexOf(config.ids.sot);
        const row = result.logits.subarray(sotAt * result.vocab, (sotAt + 1) * result.vocab);
        noSpeechProb = Math.exp(row[config.ids.noSpeech]! - logSumExp(row));
      }
      const logits = result.logits.slice(result.logits.length - result.vocab);
      applyWhisperRules(logits, tokens, config, request.timestamps);
      const token = pickToken(logits, request.temperature);
      logprobs.push(logits[token]! - logSumExp(logits));
      request.progress?.();
      if (token === config.ids.eot) break;
      tokens.push(token);
      const cut = loopCut(tokens, isText);
      if (cut !== undefined) {
        looped = true;
        tokens.length = cut;
        logprobs.length = cut;
        break;
      }
      input = [token];
    }
    for (const tensor of Object.values(cache ?? {})) tensor.dispose();
    return { tokens, logprobs, noSpeechProb, looped };
  }
}
