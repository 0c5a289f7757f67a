import { DocumentError, type DocumentFormat } from './types';

const BY_EXTENSION: Record<string, DocumentFormat> = {
  txt: 'text',
  text: 'text',
  log: 'text',
  md: 'markdown',
  markdown: 'markdown',
  mdx: 'markdown',
  html: 'html',
  htm: 'html',
  xhtml: 'html',
  json: 'json',
  jsonl: 'jsonl',
  ndjson: 'jsonl',
  csv: 'csv',
  tsv: 'tsv',
  pdf: 'pdf',
};

const BY_MIME: Record<string, DocumentFormat> = {
  'text/plain': 'text',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'application/json': 'json',
  'application/x-ndjson': 'jsonl',
  'application/jsonl': 'jsonl',
  'text/csv': 'csv',
  'text/tab-separated-values': 'tsv',
  'application/pdf': 'pdf',
};

/** The file types Vaani reads, for error messages and docs. */
export const SUPPORTED_EXTENSIONS = Object.keys(BY_EXTENSION);

const extensionOf = (name: string) => /\.([^./\\]+)$/.exec(name)?.[1]?.toLowerCase();

const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-

/** Whether the first KiB holds `%PDF-` (readers accept leading junk before it). */
export function looksLikePdf(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length - PDF_MAGIC.length, 1024);
  for (let i = 0; i <= end; i++) if (PDF_MAGIC.every((byte, k) => bytes[i + k] === byte)) return true;
  return false;
}

/**
 * The format of a file, from its extension, else its media type, else its content (a PDF's
 * magic, or UTF-8 text). Names an unsupported type clearly.
 */
export function formatOf(name: string, mime: string, bytes: Uint8Array): DocumentFormat {
  const extension = extensionOf(name);
  if (extension && BY_EXTENSION[extension]) return BY_EXTENSION[extension];
  const type = mime.split(';')[0]!.trim().toLowerCase();
  if (BY_MIME[type]) return BY_MIME[type];
  if (type.startsWith('text/')) return 'text';
  if (!extension && (!type || type === 'application/octet-stream')) {
    if (looksLikePdf(bytes)) return 'pdf';
    decodeText(bytes, name);
    return 'text';
  }
  throw new DocumentError(
    'unsupported',
    `Unsupported file type ${extension ? `".${extension}"` : `"${type}"`} for "${name}": ` +
      `Vaani reads ${SUPPORTED_EXTENSIONS.map((e) => `.${e}`).join(', ')}.`,
  );
}

/**
 * The text of a file that claims to be text: UTF-8 (or UTF-16 with a byte-order mark), else a
 * clear error; NUL bytes or many control characters mean binary data posing as text.
 */
export function decodeText(bytes: Uint8Array, name: string): string {
  let text: string;
  try {
    if (bytes[0] === 0xff && bytes[1] === 0xfe) text = new TextDecoder('utf-16le', { fatal: true }).decode(bytes);
    else if (bytes[0] === 0xfe && bytes[1] === 0xff) text = new TextDecoder('utf-16be', { fatal: true }).decode(bytes);
    else text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new DocumentError('binary', `"${name}" is not UTF-8 text: it holds bytes that are not valid UTF-8.`);
  }
  let control = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0) throw new DocumentError('binary', `"${name}" is binary data, not text: it holds NUL bytes.`);
    if (code < 32 && code !== 9 && code !== 10 && code !== 13 && code !== 12) control++;
  }
  if (control > Math.max(8, text.length / 100))
    throw new DocumentError('binary', `"${name}" is binary data, not text: ${control} control characters.`);
  return text;
}
