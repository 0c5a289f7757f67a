import { describe, expect, it } from 'vitest';
import { readConfig } from '../../../../src/worker/chat/config';

describe('readConfig', () => {
  it('reads an onnx-community config with a list of eos ids in generation_config', () => {
    const config = readConfig({
      config: {
        max_position_embeddings: 32768,
        num_attention_heads: 14,
        num_key_value_heads: 2,
        hidden_size: 896,
        eos_token_id: 151645,
      },
      generation: { eos_token_id: [151645, 151643] },
      tokenizerConfig: { model_max_length: 131072 },
      eosTokenId: 151645,
    });
    expect(config).toEqual({ contextLength: 32768, eosIds: [151645, 151643], kvHeads: 2, headDim: 64 });
  });

  it('falls back to genai_config.json and the tokenizer when there is no config.json', () => {
    const config = readConfig({
      genai: {
        model: {
          context_length: 2048,
          eos_token_id: 1,
          decoder: { head_size: 16, hidden_size: 16, num_attention_heads: 1, num_key_value_heads: 1 },
        },
      },
      tokenizerConfig: { model_max_length: 2048 },
      eosTokenId: 2,
    });
    expect(config).toEqual({ contextLength: 2048, eosIds: [2], kvHeads: 1, headDim: 16 });
  });

  it('ignores an absurd model_max_length and reads nested text_config', () => {
    const config = readConfig({
      config: { text_config: { head_dim: 256, num_key_value_heads: 1 } },
      tokenizerConfig: { model_max_length: 1e30 },
    });
    expect(config.contextLength).toBe(2048);
    expect(config.headDim).toBe(256);
  });
});
