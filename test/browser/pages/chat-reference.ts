/**
 * A second implementation of greedy decoding for the chat tests: onnxruntime-web called directly,
 * recomputing the whole sequence every step (no KV cache), prompt built with @huggingface/jinja and
 * @huggingface/tokenizers directly. It shares no code with src/worker/chat or src/common/text.
 */
import { Template } from '@huggingface/jinja';
import { Tokenizer } from '@huggingface/tokenizers';
import * as ort from 'onnxruntime-web/wasm';

const json = async (url: string) => (await fetch(url)).json();
const bytes = async (url: string) => new Uint8Array(await (await fetch(url)).arrayBuffer());

function toFloats(data: ArrayBufferView): Float32Array {
  if (data instanceof Float32Array) return data;
  return Float32Array.from(data as unknown as ArrayLike<number>);
}

export interface ReferenceRequest {
  base: string;
  /** Graph path under base, e.g. 'model.onnx' or 'onnx/model.onnx'. */
  graph: string;
  externalData: string[];
  messages: { role: string; content: string }[];
  /** Raw text instead of templated messages (the /completions route), encoded with the tokenizer's special tokens. */
  rawPrompt?: string;
  steps: number;
  stopIds: number[];
}

export async function greedyWithoutCache(request: ReferenceRequest) {
  const [tokenizerJson, tokenizerConfig] = await Promise.all([
    json(`${request.base}tokenizer.json`),
    json(`${request.base}tokenizer_config.json`),
  ]);
  const tokenizer = new Tokenizer(tokenizerJson, tokenizerConfig);
  const token = (value: unknown) =>
    typeof value === 'string' ? value : (value as { content: string } | null)?.content;
  const prompt = new Template(tokenizerConfig.chat_template).render({
    messages: request.messages,
    add_generation_prompt: true,
    bos_token: token(tokenizerConfig.bos_token),
    eos_token: token(tokenizerConfig.eos_token),
  });
  const promptIds =
    request.rawPrompt === undefined
      ? tokenizer.encode(prompt, { add_special_tokens: false }).ids
      : tokenizer.encode(request.rawPrompt).ids;
  const folder = request.graph.slice(0, request.graph.lastIndexOf('/') + 1);
  ort.env.wasm.numThreads = 1;
  const session = await ort.InferenceSession.create(await bytes(request.base + request.graph), {
    executionProviders: ['wasm'],
    externalData: await Promise.all(
      request.externalData.map(async (file) => ({
        path: file.slice(folder.length),
        data: await bytes(request.base + file),
      })),
    ),
  });
  const ids = [...promptIds];
  const generated: number[] = [];
  for (let step = 0; step < request.steps; step++) {
    const n = ids.length;
    const feeds: Record<string, ort.Tensor> = {
      input_ids: new ort.Tensor('int64', BigInt64Array.from(ids.map(BigInt)), [1, n]),
      attention_mask: new ort.Tensor('int64', new BigInt64Array(n).fill(1n), [1, n]),
    };
    for (const input of session.inputMetadata) {
      if (input.name === 'position_ids')
        feeds.position_ids = new ort.Tensor('int64', BigInt64Array.from(ids.map((_, i) => BigInt(i))), [1, n]);
      if (input.name === 'num_logits_to_keep')
        feeds.num_logits_to_keep = new ort.Tensor('int64', new BigInt64Array([1n]), []);
      if (input.name.startsWith('past_key_values.') && input.isTensor) {
        const [, heads, , dim] = input.shape as number[];
        feeds[input.name] = new ort.Tensor(
          input.type as 'float32',
          input.type === 'float16' ? new Uint16Array(0) : new Float32Array(0),
          [1, heads!, 0, dim!],
        );
      }
    }
    const out = await session.run(feeds);
    const logits = toFloats(out.logits!.data as ArrayBufferView);
    const vocab = out.logits!.dims.at(-1)!;
    const row = logits.subarray(logits.length - vocab);
    let best = 0;
    for (let i = 1; i < vocab; i++) if (row[i]! > row[best]!) best = i;
    if (request.stopIds.includes(best)) break;
    generated.push(best);
    ids.push(best);
  }
  await session.release();
  return {
    promptTokens: promptIds.length,
    generated,
    text: tokenizer.decode(generated, { skip_special_tokens: true }),
  };
}
