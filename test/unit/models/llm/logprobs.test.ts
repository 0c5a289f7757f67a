import { describe, expect, it } from 'vitest';
import { TextOffsets, legacyLogprobs } from '../../../../src/page/api/_legacy-logprobs';
import { tokenLogprob, TokenTexts } from '../../../../src/worker/chat/logprobs';
import { llamaTokenizer, qwen3Tokenizer } from '../../text/support';

const utf8 = new TextEncoder();
const HINDI = 'नमस्ते, आप कैसे हैं?';

/** Each of `ids` as generation names it, chosen from logits that favour it, with `top` alternatives (the other ids). */
function pieces(tokenizer: ReturnType<typeof qwen3Tokenizer>, ids: number[], top = 0) {
  const texts = new TokenTexts(tokenizer);
  return ids.map((id, step) => {
    const logits = new Float32Array(Math.max(...ids) + 1).fill(-50);
    for (const other of ids) logits[other] = 1 + Math.sin(other + step);
    logits[id] = 5;
    const entry = tokenLogprob(logits, id, top, (candidate) => texts.of(candidate));
    texts.push(id);
    return entry;
  });
}

describe('logprobs token text and bytes', () => {
  const qwen3 = qwen3Tokenizer();

  it("on Qwen3's tokenizer: each token's bytes are its own, and joined they are the answer's bytes", () => {
    const ids = qwen3.encode(HINDI);
    const tokens = pieces(qwen3, ids);
    expect(tokens.flatMap((token) => token.bytes)).toEqual(Array.from(utf8.encode(HINDI)));
    for (const token of tokens) {
      expect(token.bytes).not.toEqual([239, 191, 189]);
      // A token that is part of a character is named by its bytes, as OpenAI names it.
      if (token.token.startsWith('bytes:'))
        expect(token.token).toBe(`bytes:${token.bytes.map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('')}`);
      else expect(Array.from(utf8.encode(token.token))).toEqual(token.bytes);
    }
    expect(tokens.some((token) => token.token.startsWith('bytes:'))).toBe(true);
    // The text of the whole-character tokens never repeats earlier text.
    const whole = tokens.filter((token) => !token.token.startsWith('bytes:')).map((token) => token.token);
    expect(whole.join('').length).toBeLessThanOrEqual(HINDI.length);
  });

  it('names top_logprobs alternatives by their own bytes too, where they stand', () => {
    const ids = qwen3.encode(HINDI);
    const tokens = pieces(qwen3, ids, 3);
    for (const token of tokens) {
      expect(token.top_logprobs[0]).toEqual({ token: token.token, logprob: token.logprob, bytes: token.bytes });
      for (const top of token.top_logprobs) {
        const id = ids.find((candidate) => {
          const own = qwen3.tokenBytes(candidate);
          return own && Array.from(own).join() === top.bytes.join();
        });
        expect(id, JSON.stringify(top)).toBeDefined();
      }
    }
  });

  it("on Llama's SentencePiece tokenizer: byte-fallback tokens carry their byte, pieces their text with its space", () => {
    const llama = llamaTokenizer();
    const text = 'Hello ॐ world';
    const ids = llama.encode(text);
    const tokens = pieces(llama, ids);
    const bytes = tokens.flatMap((token) => token.bytes);
    expect(new TextDecoder().decode(Uint8Array.from(bytes))).toBe(llama.decode(ids));
    expect(tokens.filter((token) => token.token.startsWith('bytes:')).map((token) => token.bytes)).toEqual([
      [0xe0],
      [0xa5],
      [0x90],
    ]);
    expect(tokens[0]!.token).toBe('Hello');
    expect(tokens.at(-1)!.token).toBe(' world');
  });

  it('legacy text_offset places each token in the text, counting characters split over tokens once', () => {
    const ids = qwen3.encode(HINDI);
    const tokens = pieces(qwen3, ids);
    const { text_offset } = legacyLogprobs(tokens, new TextOffsets(3));
    const bytes: number[] = [];
    tokens.forEach((token, i) => {
      // The offset is where the token's first byte falls: the length of the whole characters before it.
      const before = new TextDecoder().decode(Uint8Array.from(bytes), { stream: true });
      expect(text_offset[i]).toBe(3 + before.length);
      bytes.push(...token.bytes);
    });
    expect(text_offset.at(-1)).toBe(3 + HINDI.length - 1);
  });
});
