import { generate } from '../../../../src/worker/chat/generate';
import type { KvDecoder } from '../../../../src/worker/chat/decoder';
import type { LoadedLlm } from '../../../../src/worker/chat/load';
import type { ChatDelta, ChatEngine, ChatOutcome, ChatParams } from '../../../../src/protocol/chat';
import type { EngineFactory } from '../../../../src/page/engines/_registry';
import { ChatTemplate } from '../../../../src/common/text/chat-template';
import { Grammars } from '../../../../src/common/text/grammar/constraint';
import { grammarVocabulary } from '../../../../src/common/text/grammar/vocabulary';
import { loadXGrammarInNode } from '../../../support/xgrammar-node';
import { qwen3Template, qwen3Tokenizer, qwen3TokenizerJson } from '../../text/support';

/** Qwen3's logits width (its embedding is padded past the tokenizer's 151,669 entries). */
export const QWEN3_VOCAB = 151_936;
export const QWEN3_EOS = [151645, 151643];

const tokenizer = qwen3Tokenizer();
const qwen3 = new ChatTemplate(qwen3Template());
const tokenizerJson = qwen3TokenizerJson();
const grammars = new Grammars((size) => grammarVocabulary(tokenizerJson, size), QWEN3_EOS, loadXGrammarInNode);

const rows = new Map<number, Float32Array>();

/** Seeded noise in [0, 2): logits of a random-weights model (a fresh copy: generation changes it). */
function noise(seed: number): Float32Array {
  let row = rows.get(seed);
  if (!row) {
    let state = seed;
    row = Float32Array.from(
      { length: QWEN3_VOCAB },
      () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2,
    );
    rows.set(seed, row);
  }
  return row.slice();
}

/**
 * Qwen3's real tokenizer, chat template and grammar vocabulary over a scripted decoder: step `i`'s
 * logits are seeded noise with the i-th token of `script` far ahead (then the end token), or
 * noise alone once `script` is undefined. `prompts` collects each prompt's ids. `template`: another
 * chat template than Qwen3's.
 */
export function qwen3Scripted(script: number[] | undefined, template = qwen3) {
  const prompts: number[][] = [];
  let step = 0;
  const logits = () => {
    const row = noise(step + 1);
    if (script) row[script[step] ?? QWEN3_EOS[0]!] = 30;
    step++;
    return row;
  };
  const decoder = {
    reset: () => (step = 0),
    // Each generate() asks what the cache holds of its prompt: nothing here, so the script restarts.
    reuse: () => ((step = 0), 0),
    prefill: async (ids: number[]) => (prompts.push(ids), logits()),
    step: async () => logits(),
  } as unknown as KvDecoder;
  const model: LoadedLlm = {
    tokenizer,
    template: () => template,
    config: { contextLength: 40960, eosIds: QWEN3_EOS },
    decoder,
    grammars,
    backend: 'wasm',
    dtype: 'fp32',
  };
  return { model, prompts, tokenizer };
}

/** Runs generate() and gathers what it streamed. */
export async function run(model: LoadedLlm, params: Partial<ChatParams>) {
  const deltas: ChatDelta[] = [];
  const outcome = await generate(
    model,
    {
      model: 'chat-v2',
      messages: [],
      temperature: 0,
      top_p: 1,
      stop: [],
      presence_penalty: 0,
      frequency_penalty: 0,
      ...params,
    },
    { onStart: () => {}, onDelta: (delta) => deltas.push(delta) },
    new AbortController().signal,
  );
  return { deltas, outcome };
}

/** A chat engine factory answering `chat-v2` with generate() on `model` (routes over the real generation loop). */
export function generateEngine(model: LoadedLlm) {
  const seen: ChatParams[] = [];
  const engine: ChatEngine & { dispose(): void } = {
    complete: (params, hooks): Promise<ChatOutcome> => {
      seen.push(params);
      return generate(model, params, hooks, hooks.signal);
    },
    dispose() {},
  };
  const factory: EngineFactory<'chat'> = {
    kind: 'chat',
    models: ['chat-v2'],
    info: () => ({ backends: ['wasm'] }),
    create: () => engine,
  };
  return { factory, seen };
}
