import type { TextItem } from 'pdfjs-dist/types/src/display/api';
import { DocumentError, type Block } from './types';

interface Line {
  text: string;
  size: number;
  y: number;
}

type PdfJs = typeof import('pdfjs-dist');
let pdfjs: Promise<PdfJs> | undefined;

/**
 * pdf.js with its parser in this thread: the caller is already a worker, so pdf.js's "fake
 * worker" (`globalThis.pdfjsWorker`) runs the parser here instead of starting a nested worker.
 */
function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= (async () => {
    const scope = globalThis as { pdfjsWorker?: unknown };
    scope.pdfjsWorker ??= await import('pdfjs-dist/build/pdf.worker.mjs');
    return import('pdfjs-dist');
  })();
  return pdfjs;
}

/** Lines of a page from pdf.js text items, with each line's font size and baseline. */
function linesOf(items: TextItem[]): Line[] {
  const lines: Line[] = [];
  let current: Line | undefined;
  for (const item of items) {
    const size = Math.hypot(item.transform[2]!, item.transform[3]!) || item.height;
    current ??= { text: '', size: 0, y: item.transform[5]! };
    current.text += item.str;
    if (item.str.trim()) current.size = Math.max(current.size, size);
    if (item.hasEOL) {
      lines.push(current);
      current = undefined;
    }
  }
  if (current) lines.push(current);
  return lines.filter((line) => line.text.trim());
}

/** The size most characters are set in: the body text. */
function bodySize(pages: Line[][]): number {
  const weight = new Map<number, number>();
  for (const line of pages.flat()) {
    const size = Math.round(line.size * 10) / 10;
    weight.set(size, (weight.get(size) ?? 0) + line.text.length);
  }
  return [...weight].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
}

function reason(error: unknown, name: string): DocumentError {
  const kind = (error as { name?: string })?.name;
  const detail = (error as Error)?.message ?? String(error);
  if (kind === 'PasswordException') return new DocumentError('encrypted', `"${name}" is an encrypted PDF: ${detail}.`);
  return new DocumentError('corrupt', `"${name}" is not a readable PDF: ${detail}.`);
}

/**
 * The text of a PDF by pdf.js, page by page: lines set larger than the body text (×1.2) are
 * headings (their sizes ranked into levels); paragraphs break at headings and wide vertical gaps.
 * Every block records its page number (1-based).
 */
export async function parsePdf(
  bytes: Uint8Array,
  name: string,
): Promise<{ title?: string; blocks: Block[]; pages: number }> {
  const { getDocument } = await loadPdfJs();
  const task = getDocument({ data: bytes.slice(), stopAtErrors: false, verbosity: 0, isEvalSupported: false });
  try {
    let document;
    try {
      document = await task.promise;
    } catch (error) {
      throw reason(error, name);
    }
    const pages: Line[][] = [];
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      pages.push(linesOf(content.items.filter((item): item is TextItem => 'str' in item)));
      page.cleanup();
    }
    const info = (await document.getMetadata().catch(() => undefined))?.info as { Title?: string } | undefined;
    const body = bodySize(pages);
    const headingSizes = [
      ...new Set(
        pages
          .flat()
          .filter((l) => l.size > body * 1.2 && l.text.length < 160)
          .map((l) => Math.round(l.size * 10) / 10),
      ),
    ].sort((a, b) => b - a);
    const headings: string[] = [];
    const blocks: Block[] = [];
    pages.forEach((lines, index) => {
      const page = index + 1;
      let paragraph: string[] = [];
      let lastY: number | undefined;
      const flush = () => {
        const text = paragraph
          .join('\n')
          .replace(/[ \t]+/g, ' ')
          .trim();
        if (text) blocks.push({ text, headings: headings.filter(Boolean), page });
        paragraph = [];
      };
      for (const line of lines) {
        const level = headingSizes.indexOf(Math.round(line.size * 10) / 10);
        if (level >= 0) {
          flush();
          headings.length = level;
          headings[level] = line.text.trim();
          for (let i = 0; i < level; i++) headings[i] ??= '';
          blocks.push({ text: line.text.trim(), headings: headings.filter(Boolean), page });
        } else {
          if (lastY !== undefined && Math.abs(lastY - line.y) > line.size * 1.8) flush();
          paragraph.push(line.text);
        }
        lastY = line.y;
      }
      flush();
    });
    return { title: info?.Title?.trim() || undefined, blocks, pages: document.numPages };
  } finally {
    await task.destroy();
  }
}
