/**
 * transformers.js text generation on the chat bench model, in its own worker (as Vaani's engine
 * runs in one), so that each contender gets its own onnxruntime-web thread count.
 */
import {
  AutoModelForCausalLM,
  AutoTokenizer,
  Tensor,
  type PreTrainedModel,
  type PreTrainedTokenizer,
} from '@huggingface/transformers';
import { expose } from 'comlink';
import { transformersThreads, useLocalTransformers } from './transformers-env';

export interface Answer {
  ms: number;
  promptTokens: number;
  generated: number;
}

export interface Timed {
  ttftMs: number;
  /** From the first token to the last: generated − 1 decode steps. */
  decodeMs: number;
  /** Each decode step's time (token to token). */
  stepsMs: number[];
  promptTokens: number;
  generated: number;
}

type Message = { role: string; content: string };

let tokenizer: PreTrainedTokenizer;
let model: PreTrainedModel;

const api = {
  /**
   * Loads `base` (a model folder URL) in `dtype` (fp32: model.onnx, q4: model_q4.onnx, q8:
   * model_quantized.onnx) with `threads` (undefined: onnxruntime-web's default); the threads in use.
   */
  async load(base: string, threads: number | undefined, dtype: 'fp32' | 'q4' | 'q8' = 'fp32'): Promise<number> {
    const folder = new URL(base, location.href);
    useLocalTransformers(new URL('..', folder).pathname, threads);
    const name = folder.pathname.split('/').at(-2)!;
    tokenizer = await AutoTokenizer.from_pretrained(name);
    model = await AutoModelForCausalLM.from_pretrained(name, { dtype, device: 'wasm' });
    return transformersThreads();
  },
  /**
   * The same as `ask`, timed token by token with a streamer (its first `put` is the prompt, then
   * one per new token): time to first token and the time from the first to the last token.
   */
  async timed(messages: Message[], max: number): Promise<Timed> {
    const start = performance.now();
    const text = tokenizer.apply_chat_template(messages, { add_generation_prompt: true, tokenize: false }) as string;
    const ids = tokenizer.encode(text, { add_special_tokens: false });
    const input_ids = new Tensor('int64', BigInt64Array.from(ids, BigInt), [1, ids.length]);
    const attention_mask = new Tensor('int64', new BigInt64Array(ids.length).fill(1n), [1, ids.length]);
    const times: number[] = [];
    const streamer = { put: () => void times.push(performance.now()), end: () => undefined };
    await model.generate({
      input_ids,
      attention_mask,
      max_new_tokens: max,
      min_new_tokens: max,
      do_sample: false,
      streamer,
    } as unknown as Parameters<PreTrainedModel['generate']>[0]);
    const tokens = times.slice(1);
    return {
      ttftMs: tokens[0]! - start,
      decodeMs: tokens.at(-1)! - tokens[0]!,
      stepsMs: tokens.slice(1).map((time, i) => time - tokens[i]!),
      promptTokens: ids.length,
      generated: tokens.length,
    };
  },
  /** Template, tokenizer and greedy generate of up to `max` tokens, timed as one. */
  async ask(messages: Message[], max: number): Promise<Answer> {
    const start = performance.now();
    const text = tokenizer.apply_chat_template(messages, { add_generation_prompt: true, tokenize: false }) as string;
    const ids = tokenizer.encode(text, { add_special_tokens: false });
    const input_ids = new Tensor('int64', BigInt64Array.from(ids, BigInt), [1, ids.length]);
    const attention_mask = new Tensor('int64', new BigInt64Array(ids.length).fill(1n), [1, ids.length]);
    const output = (await model.generate({ input_ids, attention_mask, max_new_tokens: max, do_sample: false })) as {
      dims: number[];
    };
    return { ms: performance.now() - start, promptTokens: ids.length, generated: output.dims.at(-1)! - ids.length };
  },
};

export type ChatTransformers = typeof api;
expose(api);
