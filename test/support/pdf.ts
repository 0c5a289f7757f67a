/**
 * A tiny PDF writer for tests: one Type0 font (Identity-H) whose ToUnicode CMap maps a CID per
 * character, so any script (Devanagari included) comes back out of a text extractor exactly,
 * without embedding glyphs. Headings are set larger than body lines.
 */
export interface PdfPage {
  heading?: string;
  lines: string[];
}

export interface PdfOptions {
  title?: string;
  /** Add a standard-security /Encrypt dictionary whose empty user password does not open it. */
  encrypted?: boolean;
}

const hex4 = (n: number) => n.toString(16).toUpperCase().padStart(4, '0');
const utf16Hex = (text: string) => Array.from({ length: text.length }, (_, i) => hex4(text.charCodeAt(i))).join('');

export function makePdf(pages: PdfPage[], options: PdfOptions = {}): Uint8Array {
  const cids = new Map<string, number>();
  const cidOf = (char: string) => {
    if (!cids.has(char)) cids.set(char, cids.size + 1);
    return cids.get(char)!;
  };
  const show = (text: string) => `<${Array.from(text, (char) => hex4(cidOf(char))).join('')}> Tj`;

  const contents = pages.map((page) => {
    const ops = ['BT'];
    let y = 800;
    if (page.heading) {
      ops.push(`/F1 20 Tf 1 0 0 1 50 ${y} Tm ${show(page.heading)}`);
      y -= 34;
    }
    for (const line of page.lines) {
      if (line === '') {
        y -= 14;
        continue;
      }
      ops.push(`/F1 11 Tf 1 0 0 1 50 ${y} Tm ${show(line)}`);
      y -= 14;
    }
    ops.push('ET');
    return ops.join('\n');
  });

  const entries = [...cids];
  const bfchar: string[] = [];
  for (let i = 0; i < entries.length; i += 100) {
    const part = entries.slice(i, i + 100);
    bfchar.push(
      `${part.length} beginbfchar`,
      ...part.map(([char, cid]) => `<${hex4(cid)}> <${utf16Hex(char)}>`),
      'endbfchar',
    );
  }
  const cmap = [
    '/CIDInit /ProcSet findresource begin 12 dict begin begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
    '/CMapName /Adobe-Identity-UCS def /CMapType 2 def',
    '1 begincodespacerange <0000> <FFFF> endcodespacerange',
    ...bfchar,
    'endcmap CMapName currentdict /CMap defineresource pop end end',
  ].join('\n');

  const objects: string[] = [];
  const add = (body: string) => objects.push(body);
  const stream = (data: string) => `<< /Length ${new TextEncoder().encode(data).length} >>\nstream\n${data}\nendstream`;
  const firstPage = 7;
  add('<< /Type /Catalog /Pages 2 0 R >>'); // 1
  const kids = pages.map((_, i) => `${firstPage + i * 2} 0 R`).join(' ');
  add(`<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`); // 2
  add(
    '<< /Type /Font /Subtype /Type0 /BaseFont /VaaniTest /Encoding /Identity-H /DescendantFonts [4 0 R] /ToUnicode 5 0 R >>',
  ); // 3
  add(
    '<< /Type /Font /Subtype /CIDFontType2 /BaseFont /VaaniTest /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor 6 0 R /DW 500 >>',
  ); // 4
  add(stream(cmap)); // 5
  add(
    '<< /Type /FontDescriptor /FontName /VaaniTest /Flags 32 /FontBBox [0 -200 1000 900] /ItalicAngle 0 /Ascent 900 /Descent -200 /CapHeight 700 /StemV 80 >>',
  ); // 6
  contents.forEach((content, i) => {
    add(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${firstPage + i * 2 + 1} 0 R >>`,
    );
    add(stream(content));
  });
  const info = objects.length + 1;
  add(`<< /Title <FEFF${utf16Hex(options.title ?? '')}> /Producer (vaani test) >>`);
  let encrypt = '';
  if (options.encrypted) {
    const junk = '<' + '7A'.repeat(32) + '>';
    add(`<< /Filter /Standard /V 1 /R 2 /O ${junk} /U ${junk} /P -4 >>`);
    encrypt = ` /Encrypt ${objects.length} 0 R /ID [<00112233445566778899AABBCCDDEEFF> <00112233445566778899AABBCCDDEEFF>]`;
  }

  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [encoder.encode('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n')];
  let offset = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(offset);
    const bytes = encoder.encode(`${i + 1} 0 obj\n${body}\nendobj\n`);
    parts.push(bytes);
    offset += bytes.length;
  });
  const xref = [
    'xref',
    `0 ${objects.length + 1}`,
    '0000000000 65535 f ',
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n `),
    'trailer',
    `<< /Size ${objects.length + 1} /Root 1 0 R /Info ${info} 0 R${encrypt} >>`,
    'startxref',
    String(offset),
    '%%EOF\n',
  ].join('\n');
  parts.push(encoder.encode(xref));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
