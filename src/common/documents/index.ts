import { parseHtml } from './html';
import { parseMarkdown } from './markdown';
import { parsePdf } from './pdf';
import { parseCsv, parseJson, parseJsonLines } from './records';
import { decodeText, formatOf, looksLikePdf } from './sniff';
import { parseText } from './text';
import { DocumentError, type ParsedDocument } from './types';

export { DocumentError, type Block, type DocumentFormat, type DocumentProblem, type ParsedDocument } from './types';
export { SUPPORTED_EXTENSIONS, decodeText, formatOf } from './sniff';

export interface DocumentInput {
  name: string;
  /** The media type the file came with ('' when unknown). */
  type: string;
  bytes: Uint8Array;
}

/**
 * A file's text as blocks with headings, pages and record fields, or a `DocumentError` naming
 * why it cannot be read (unsupported type, over `maxBytes`, empty, binary, corrupt, encrypted).
 */
export async function parseDocument(file: DocumentInput, maxBytes: number): Promise<ParsedDocument> {
  const { name, bytes } = file;
  if (bytes.length > maxBytes)
    throw new DocumentError('too_large', `"${name}" is ${bytes.length} bytes, over the limit of ${maxBytes} bytes.`);
  if (!bytes.length) throw new DocumentError('empty', `"${name}" is empty.`);
  const format = formatOf(name, file.type, bytes);
  let document: ParsedDocument;
  if (format === 'pdf') {
    if (!looksLikePdf(bytes)) throw new DocumentError('corrupt', `"${name}" is not a PDF: it has no %PDF- header.`);
    document = { format, ...(await parsePdf(bytes, name)) };
  } else {
    const text = decodeText(bytes, name).replace(/^\ufeff/, '');
    if (format === 'html') document = { format, ...parseHtml(text) };
    else if (format === 'markdown') document = { format, blocks: parseMarkdown(text) };
    else if (format === 'json') document = { format, blocks: parseJson(text, name) };
    else if (format === 'jsonl') document = { format, blocks: parseJsonLines(text, name) };
    else if (format === 'csv' || format === 'tsv')
      document = { format, blocks: parseCsv(text, name, format === 'tsv' ? '\t' : undefined) };
    else document = { format, blocks: parseText(text) };
  }
  if (!document.blocks.some((block) => block.text.trim()))
    throw new DocumentError(
      'empty',
      `"${name}" holds no text${format === 'pdf' ? ' (a scanned PDF needs OCR, which Vaani does not do)' : ''}.`,
    );
  return document;
}
