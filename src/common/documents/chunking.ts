import type { Metadata } from '../../protocol/collections';
import type { StaticChunking } from '../../protocol/data';
import type { Block } from '.';

/** OpenAI's `auto` strategy: 800 tokens with 400 of overlap. */
export const AUTO_CHUNKING: StaticChunking = { max_chunk_size_tokens: 800, chunk_overlap_tokens: 400 };

/**
 * The strategy a file is chunked with: a static one as given; `auto` is OpenAI's 800/400, cut to
 * the embedding model's window (`window` tokens of text) so no chunk is truncated when embedded.
 */
export function resolveChunking(requested: StaticChunking | undefined, window: number): StaticChunking {
  if (requested) return requested;
  const max = Math.min(AUTO_CHUNKING.max_chunk_size_tokens, window);
  return { max_chunk_size_tokens: max, chunk_overlap_tokens: Math.min(AUTO_CHUNKING.chunk_overlap_tokens, max >> 1) };
}

/** A piece of a document sized for one embedding, with where it came from. */
export interface Chunk {
  /** Position in the file, from 0. */
  index: number;
  text: string;
  /** Tokens of the text, as the counting tokenizer sees them. */
  tokens: number;
  /** The heading path in effect where the chunk starts. */
  headings: string[];
  /** First and last page the chunk touches (PDF). */
  pages?: [number, number];
  /** The record's fields (CSV rows, JSON objects). */
  fields?: Metadata;
}

/** Tokens in a text without special tokens (the embedding model's tokenizer). */
export type CountTokens = (text: string) => number;

interface Piece {
  text: string;
  tokens: number;
  block: Block;
}

const segmenter = new Intl.Segmenter('und', { granularity: 'word' });

/** Words, spaces and punctuation of each block, each priced in tokens (a word once per distinct spelling). */
function piecesOf(blocks: Block[], count: CountTokens, cache: Map<string, number>): Piece[] {
  const pieces: Piece[] = [];
  blocks.forEach((block, i) => {
    if (i > 0) pieces.push({ text: '\n\n', tokens: 0, block });
    for (const { segment } of segmenter.segment(block.text)) {
      let tokens = 0;
      if (segment.trim()) {
        tokens = cache.get(segment) ?? count(segment);
        cache.set(segment, tokens);
      }
      pieces.push({ text: segment, tokens, block });
    }
  });
  return pieces;
}

/** Windows of at most `max` tokens over the pieces, each next window starting `overlap` tokens back. */
function windows(pieces: Piece[], { max_chunk_size_tokens: max, chunk_overlap_tokens: overlap }: StaticChunking) {
  const out: { start: number; end: number; tokens: number }[] = [];
  let start = 0;
  while (start < pieces.length) {
    while (start < pieces.length && pieces[start]!.tokens === 0) start++;
    if (start >= pieces.length) break;
    let end = start;
    let tokens = 0;
    while (end < pieces.length && tokens + pieces[end]!.tokens <= max) tokens += pieces[end++]!.tokens;
    if (end === start) tokens = pieces[end++]!.tokens; // one word longer than a chunk stands alone
    out.push({ start, end, tokens });
    if (!pieces.slice(end).some((piece) => piece.tokens > 0)) break;
    let next = end;
    let back = 0;
    while (next > start + 1 && back + pieces[next - 1]!.tokens <= overlap) back += pieces[--next]!.tokens;
    start = next;
  }
  return out;
}

function chunksOf(pieces: Piece[], strategy: StaticChunking, first: number): Chunk[] {
  return windows(pieces, strategy).map(({ start, end, tokens }, i) => {
    const span = pieces.slice(start, end);
    const pages = span
      .filter((piece) => piece.tokens > 0)
      .map((piece) => piece.block.page)
      .filter((page): page is number => page !== undefined);
    const { block } = span[0]!;
    return {
      index: first + i,
      text: span
        .map((piece) => piece.text)
        .join('')
        .trim(),
      tokens,
      headings: block.headings,
      ...(pages.length ? { pages: [Math.min(...pages), Math.max(...pages)] as [number, number] } : {}),
      ...(block.fields ? { fields: block.fields } : {}),
    };
  });
}

/**
 * Chunks of a parsed document by tokens with overlap (OpenAI's static strategy). Prose runs on
 * across blocks; a record (CSV row, JSON object) is a chunk of its own, split only when longer
 * than a chunk. Each chunk keeps the heading path where it starts and the pages it spans.
 */
export function chunkDocument(blocks: Block[], strategy: StaticChunking, count: CountTokens): Chunk[] {
  if (strategy.chunk_overlap_tokens < 0 || strategy.chunk_overlap_tokens * 2 > strategy.max_chunk_size_tokens)
    throw new RangeError('chunk_overlap_tokens must be between 0 and half of max_chunk_size_tokens.');
  const cache = new Map<string, number>();
  const chunks: Chunk[] = [];
  let prose: Block[] = [];
  const flushProse = () => {
    if (prose.length) chunks.push(...chunksOf(piecesOf(prose, count, cache), strategy, chunks.length));
    prose = [];
  };
  for (const block of blocks) {
    if (!block.fields) {
      prose.push(block);
      continue;
    }
    flushProse();
    chunks.push(...chunksOf(piecesOf([block], count, cache), strategy, chunks.length));
  }
  flushProse();
  return chunks;
}
