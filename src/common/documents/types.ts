import type { Metadata } from '../../protocol/collections';

/** The formats a file can be read as. */
export type DocumentFormat = 'text' | 'markdown' | 'html' | 'json' | 'jsonl' | 'csv' | 'tsv' | 'pdf';

/**
 * A run of a document's text with where it sits: the heading path above it, the page it is on
 * (PDF), and for records (CSV rows, JSON objects) the record's fields.
 */
export interface Block {
  text: string;
  headings: string[];
  page?: number;
  /** Set on records: the fields, kept as attributes; a record is never merged with another. */
  fields?: Metadata;
}

export interface ParsedDocument {
  format: DocumentFormat;
  /** The document's own title (HTML <title>, PDF metadata), when it has one. */
  title?: string;
  blocks: Block[];
  /** Pages in the file (PDF only). */
  pages?: number;
}

/** Why a file could not be read; `code` is OpenAI's `last_error.code`. */
export type DocumentProblem = 'unsupported' | 'too_large' | 'empty' | 'binary' | 'corrupt' | 'encrypted';

export class DocumentError extends Error {
  constructor(
    readonly problem: DocumentProblem,
    message: string,
  ) {
    super(message);
    this.name = 'DocumentError';
  }

  /** OpenAI's `last_error.code` for a vector store file. */
  get code(): 'unsupported_file' | 'invalid_file' {
    return this.problem === 'unsupported' ? 'unsupported_file' : 'invalid_file';
  }
}
