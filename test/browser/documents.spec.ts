import { expect, test } from '@playwright/test';
import type { parseDocument } from '../../src/common/documents';
import type { makePdf } from '../support/pdf';

declare global {
  interface Window {
    parseDocument: typeof parseDocument;
    makePdf: typeof makePdf;
  }
}

test.beforeEach(async ({ page }) => {
  await page.goto('/test/browser/pages/documents.html');
  await page.waitForFunction(() => document.title === 'ready');
});

test('a generated multi-page PDF gives its Hindi and English text, headings and page numbers', async ({ page }) => {
  const doc = await page.evaluate(async () => {
    const bytes = window.makePdf(
      [
        { heading: 'Chapter One', lines: ['The harbour opens at dawn.', 'Boats leave from pier seven.'] },
        { lines: ['The lighthouse keeper writes the weather log at noon.'] },
        { heading: 'अध्याय दो', lines: ['पुस्तकालय सुबह नौ बजे खुलता है।', 'Library cards are free.'] },
      ],
      { title: 'Harbour guide' },
    );
    const parsed = await window.parseDocument({ name: 'guide.pdf', type: 'application/pdf', bytes }, 1 << 20);
    return { ...parsed, blocks: parsed.blocks.map((b) => ({ ...b, text: b.text.normalize('NFC') })) };
  });
  expect(doc).toMatchObject({ format: 'pdf', pages: 3, title: 'Harbour guide' });
  const find = (needle: string) => doc.blocks.find((b) => b.text.includes(needle));
  expect(find('Boats leave from pier seven.')).toMatchObject({ page: 1, headings: ['Chapter One'] });
  expect(find('lighthouse keeper')).toMatchObject({ page: 2, headings: ['Chapter One'] });
  expect(find('पुस्तकालय सुबह नौ बजे खुलता है।')).toMatchObject({ page: 3, headings: ['अध्याय दो'] });
  expect(find('अध्याय दो')).toMatchObject({ page: 3 });
});

test('encrypted, corrupt and text-less PDFs fail with a reason', async ({ page }) => {
  const results = await page.evaluate(async () => {
    const attempt = (name: string, bytes: Uint8Array) =>
      window.parseDocument({ name, type: '', bytes }, 1 << 20).then(
        () => 'parsed',
        (error) => `${error.problem}: ${error.message}`,
      );
    const good = window.makePdf([{ lines: ['secret'] }]);
    return {
      encrypted: await attempt('locked.pdf', window.makePdf([{ lines: ['secret'] }], { encrypted: true })),
      truncated: await attempt('cut.pdf', good.slice(0, 40)),
      garbage: await attempt('junk.pdf', new TextEncoder().encode('%PDF-1.4\n' + 'garbage '.repeat(50))),
      blank: await attempt('blank.pdf', window.makePdf([{ lines: [] }])),
    };
  });
  expect(results.encrypted).toMatch(/^encrypted: "locked.pdf" is an encrypted PDF/);
  expect(results.truncated).toMatch(/^(corrupt|empty): "cut.pdf"/);
  expect(results.garbage).toMatch(/^(corrupt|empty): "junk.pdf"/);
  expect(results.blank).toMatch(/^empty: "blank.pdf" holds no text \(a scanned PDF needs OCR/);
});
