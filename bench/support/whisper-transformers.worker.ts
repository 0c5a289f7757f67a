/**
 * transformers.js's speech-recognition pipeline on a Whisper bench model, in its own worker (as
 * Vaani's engine runs in one), so that each contender gets its own onnxruntime-web thread count.
 */
import { pipeline, type AutomaticSpeechRecognitionPipeline } from '@huggingface/transformers';
import { expose } from 'comlink';
import { transformersThreads, useLocalTransformers } from './transformers-env';

let asr: AutomaticSpeechRecognitionPipeline;

const api = {
  /** Loads model `name` under `folder` with `threads` (undefined: onnxruntime-web's default); the threads in use. */
  async load(folder: string, name: string, threads: number | undefined): Promise<number> {
    useLocalTransformers(folder, threads);
    asr = (await pipeline('automatic-speech-recognition', name, {
      dtype: 'fp32',
      device: 'wasm',
    })) as AutomaticSpeechRecognitionPipeline;
    return transformersThreads();
  },
  /** The pipeline's own call, minus _decode_asr (it throws on the empty segments random weights make). */
  async transcribe(samples: Float32Array): Promise<string> {
    const eot = asr.tokenizer.convert_tokens_to_ids('<|endoftext|>');
    const { input_features } = await asr.processor(samples);
    const output = (await asr.model.generate({ inputs: input_features, language: 'en' } as never)) as unknown as {
      tolist(): bigint[][];
    };
    const tokens = output
      .tolist()[0]!
      .map(Number)
      .slice(4)
      .filter((token) => token < eot);
    return tokens.length ? asr.tokenizer.decode(tokens, { skip_special_tokens: true }) : '';
  },
  /**
   * Long audio as the pipeline's `chunk_length_s: 30` cuts it (30 s chunks, 5 s stride on each
   * side), each chunk through the processor and generate with timestamps; the number of tokens made.
   */
  async transcribeChunked(samples: Float32Array): Promise<number> {
    const chunk = 30 * 16000;
    const stride = 5 * 16000;
    let tokens = 0;
    for (let from = 0; ; from += chunk - 2 * stride) {
      const { input_features } = await asr.processor(samples.subarray(from, from + chunk));
      const output = (await asr.model.generate({
        inputs: input_features,
        language: 'en',
        return_timestamps: true,
      } as never)) as unknown as { tolist(): bigint[][] };
      tokens += output.tolist()[0]!.length;
      if (from + chunk >= samples.length) return tokens;
    }
  },
};

export type WhisperTransformers = typeof api;
expose(api);
