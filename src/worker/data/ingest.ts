import type { LastError, PreparedChunk, StaticChunking } from '../../protocol/data';
import { chunkDocument, resolveChunking, type CountTokens } from '../../common/documents/chunking';
import { DocumentError, parseDocument, type DocumentInput } from '../../common/documents';

/** Largest file Vaani reads into a vector store (**Choice**: what a page can parse without stalling). */
const MAX_FILE_BYTES = 25 * 1024 * 1024;

/** What is embedded and keyword-indexed for a chunk: its heading path, then its text. */
export const indexedText = (headings: string[], text: string) =>
  headings.length ? `${headings.join(' › ')}\n${text}` : text;

/** The embedding model's tokenizer as the chunker needs it: a counter and the tokens of text one embedding takes. */
export interface ChunkTokenizer {
  count: CountTokens;
  window: number;
}

/** A file parsed and cut into chunks by tokens with overlap (a static strategy, or auto within the model's window). */
export async function prepareChunks(
  file: DocumentInput,
  requested: StaticChunking | undefined,
  tokenizer: ChunkTokenizer,
): Promise<{ chunks: PreparedChunk[]; strategy: StaticChunking }> {
  const document = await parseDocument(file, MAX_FILE_BYTES);
  const strategy = resolveChunking(requested, tokenizer.window);
  const chunks = chunkDocument(document.blocks, strategy, tokenizer.count).map((chunk) => ({
    index: chunk.index,
    text: chunk.text,
    indexed: indexedText(chunk.headings, chunk.text),
    headings: chunk.headings,
    tokens: chunk.tokens,
    ...(chunk.pages ? { pages: chunk.pages } : {}),
    ...(chunk.fields ? { fields: chunk.fields } : {}),
  }));
  return { chunks, strategy };
}

/** OpenAI's `last_error` for a failure while ingesting a file. */
export function lastErrorOf(error: unknown): LastError {
  if (error instanceof DocumentError) return { code: error.code, message: error.message };
  return { code: 'server_error', message: error instanceof Error ? error.message : String(error) };
}
