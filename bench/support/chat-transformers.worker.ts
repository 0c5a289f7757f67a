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

type Message = { role: string; content: string };

let tokenizer: PreTrainedTokenizer;
let model: PreTrainedModel;

const api = {
  /** Loads `base` (a model folder URL) with `threads` (undefined: onnxruntime-web's default); the threads in use. */
  async load(base: string, threads: number | undefined): Promise<number> {
    const folder = new URL(base, location.href);
    useLocalTransformers(new URL('..', folder).pathname, threads);
    const name = folder.pathname.split('/').at(-2)!;
    tokenizer = await AutoTokenizer.from_pretrained(name);
    model = await AutoModelForCausalLM.from_pretrained(name, { dtype: 'fp32', device: 'wasm' });
    return transformersThreads();
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
