import { describe, expect, it } from 'vitest';
import { DocumentError, parseDocument } from '../../../src/common/documents';

const file = (name: string, content: string | Uint8Array, type = '') => ({
  name,
  type,
  bytes: typeof content === 'string' ? new TextEncoder().encode(content) : content,
});
const MB = 1 << 20;

async function problem(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DocumentError);
  return error as DocumentError;
}

describe('parseDocument', () => {
  it('splits plain text into paragraphs', async () => {
    const doc = await parseDocument(file('notes.txt', 'First line\nsame para.\n\n\nसेकंड पैराग्राफ़ हिंदी में।\r\n'), MB);
    expect(doc.format).toBe('text');
    expect(doc.blocks.map((b) => b.text)).toEqual(['First line\nsame para.', 'सेकंड पैराग्राफ़ हिंदी में।']);
  });

  it('keeps the Markdown heading path with each block', async () => {
    const md =
      '# Guide\n\nIntro *text*.\n\n## Install\n\n- one\n- two\n\n### Linux\n\nRun `apt`.\n\n## Use\n\nCall it.\n';
    const doc = await parseDocument(file('guide.md', md), MB);
    const byText = Object.fromEntries(doc.blocks.map((b) => [b.text, b.headings]));
    expect(byText['Intro text.']).toEqual(['Guide']);
    expect(byText['one\ntwo']).toEqual(['Guide', 'Install']);
    expect(byText['Run apt.']).toEqual(['Guide', 'Install', 'Linux']);
    expect(byText['Call it.']).toEqual(['Guide', 'Use']);
  });

  it('extracts an HTML article and drops navigation, scripts and footers', async () => {
    const html = `<!doctype html><html><head><title>Returns policy</title><style>p{color:red}</style></head><body>
      <nav><a href="/">Home</a> <a href="/shop">Shop menu link</a></nav>
      <header>Site banner text</header>
      <main><article><h1>Returns policy</h1>
        <p>You may return any unused item within thirty days of delivery for a full refund to the original card.</p>
        <h2>Damaged goods</h2>
        <p>If an item arrives damaged, photograph it and write to support within seven days; we send a replacement at no cost.</p>
        <p>वापसी के लिए रसीद ज़रूरी है और सामान अप्रयुक्त होना चाहिए, तभी पूरा पैसा वापस मिलेगा।</p>
        <script>console.log('tracking')</script>
      </article></main>
      <footer>© Shop Inc. All rights reserved. Privacy · Terms</footer></body></html>`;
    const doc = await parseDocument(file('returns.html', html), MB);
    const text = doc.blocks.map((b) => b.text).join('\n');
    expect(text).toContain('thirty days');
    expect(text).toContain('वापसी के लिए रसीद');
    for (const junk of ['Shop menu link', 'tracking', 'All rights reserved', 'Site banner', 'color:red'])
      expect(text).not.toContain(junk);
    expect(doc.blocks.find((b) => b.text.includes('photograph'))!.headings).toEqual([
      'Returns policy',
      'Damaged goods',
    ]);
    expect(doc.title).toBe('Returns policy');
  });

  it('drops furniture from a page with no article', async () => {
    const html =
      '<body><nav>Menu Home About</nav><h3>Hours</h3><div>Open 9–5.</div><footer>Footer stuff</footer></body>';
    const doc = await parseDocument(file('hours.htm', html), MB);
    const text = doc.blocks.map((b) => b.text).join('\n');
    expect(text).toContain('Open 9–5.');
    expect(text).not.toContain('Footer stuff');
  });

  it('reads CSV rows as records with typed fields', async () => {
    const csv = 'sku,name,price,in_stock\nA1,"Tea, green",4.5,true\nB2,चाय मसाला,120,false\n';
    const doc = await parseDocument(file('catalogue.csv', csv), MB);
    expect(doc.blocks).toHaveLength(2);
    expect(doc.blocks[0]!.fields).toEqual({ sku: 'A1', name: 'Tea, green', price: 4.5, in_stock: true });
    expect(doc.blocks[1]!.text).toBe('sku: B2\nname: चाय मसाला\nprice: 120\nin_stock: false');
    const tsv = await parseDocument(file('c.tsv', 'a\tb\n1\tx\n'), MB);
    expect(tsv.blocks[0]!.fields).toEqual({ a: 1, b: 'x' });
  });

  it('reads JSON arrays, wrapped arrays and JSON Lines as records', async () => {
    const array = await parseDocument(file('a.json', '[{"id":1,"tags":["x","y"],"meta":{"lang":"hi"}},{"id":2}]'), MB);
    expect(array.blocks[0]!.fields).toEqual({ id: 1, 'tags[0]': 'x', 'tags[1]': 'y', 'meta.lang': 'hi' });
    const wrapped = await parseDocument(file('b.json', '{"products":[{"id":"p"},{"id":"q"}]}'), MB);
    expect(wrapped.blocks.map((b) => b.fields)).toEqual([{ id: 'p' }, { id: 'q' }]);
    expect(wrapped.blocks[0]!.headings).toEqual(['products']);
    const lines = await parseDocument(file('c.jsonl', '{"a":1}\n\n{"a":2}\n'), MB);
    expect(lines.blocks).toHaveLength(2);
    expect((await problem(parseDocument(file('d.jsonl', '{"a":1}\n{oops'), MB))).message).toMatch(/line 2/);
    expect((await problem(parseDocument(file('e.json', '{"a":'), MB))).problem).toBe('corrupt');
  });

  it('names why a file cannot be read', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]);
    const unsupported = await problem(parseDocument(file('photo.png', png, 'image/png'), MB));
    expect([unsupported.problem, unsupported.code]).toEqual(['unsupported', 'unsupported_file']);
    expect(unsupported.message).toMatch(/\.png/);
    const binary = await problem(parseDocument(file('fake.txt', new Uint8Array([0x41, 0, 0x42, 0xff, 0xfe])), MB));
    expect([binary.problem, binary.code]).toEqual(['binary', 'invalid_file']);
    const nul = await problem(parseDocument(file('nul.md', new Uint8Array([0x41, 0x00, 0x42])), MB));
    expect(nul.message).toMatch(/NUL/);
    const big = await problem(parseDocument(file('big.txt', 'x'.repeat(2000)), 1000));
    expect(big.problem).toBe('too_large');
    expect((await problem(parseDocument(file('empty.txt', ''), MB))).problem).toBe('empty');
    expect((await problem(parseDocument(file('blank.md', '  \n\n '), MB))).problem).toBe('empty');
    const notPdf = await problem(parseDocument(file('report.pdf', 'hello'), MB));
    expect([notPdf.problem, notPdf.message]).toEqual(['corrupt', expect.stringMatching(/%PDF-/)]);
  });

  it('sniffs a file with no extension', async () => {
    expect((await parseDocument(file('README', 'just text'), MB)).format).toBe('text');
    expect((await parseDocument(file('page', '<p>hi</p>', 'text/html; charset=utf-8'), MB)).format).toBe('html');
    const utf16 = new Uint8Array([0xff, 0xfe, 0x48, 0x00, 0x69, 0x00]);
    expect((await parseDocument(file('u.txt', utf16), MB)).blocks[0]!.text).toBe('Hi');
  });
});
