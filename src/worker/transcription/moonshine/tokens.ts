/**
 * sherpa-onnx's tokens.txt as its SymbolTable reads it (sherpa-onnx/csrc/symbol-table.cc): one
 * `symbol id` pair a line; a symbol starting with ▁ has that mark read as a space; `<0xNN>` at ids
 * 3..258 (byte fallback, id − 3 = NN) is that raw byte. Text is the symbols of the ids joined
 * (offline-recognizer-moonshine-impl.h `Convert`), bytes decoded as UTF-8 at the end.
 */
export type SymbolTable = ReadonlyMap<number, string | number>;

/** SentencePiece's word-boundary mark. */
const WORD_START = '\u2581';
const BYTE = /^<0x([0-9A-F]{2})>$/;

export function readTokens(text: string): SymbolTable {
  const table = new Map<number, string | number>();
  const words = text.split(/\s+/).filter(Boolean);
  for (let i = 0; i + 1 < words.length; i += 2) {
    let symbol: string | number = words[i]!;
    const id = Number(words[i + 1]);
    if (!Number.isInteger(id)) throw new Error(`tokens.txt: '${words[i + 1]}' after '${symbol}' is not an id.`);
    if (symbol.startsWith(WORD_START)) symbol = ` ${symbol.slice(1)}`;
    const byte = BYTE.exec(symbol);
    if (byte && id >= 3 && id <= 258 && parseInt(byte[1]!, 16) === id - 3) symbol = id - 3;
    table.set(id, symbol);
  }
  return table;
}

const utf8 = new TextEncoder();

/** The text of token ids: ids the table lacks are skipped (as sherpa-onnx does), the result trimmed. */
export function detokenise(table: SymbolTable, ids: readonly number[]): string {
  const bytes: number[] = [];
  for (const id of ids) {
    const symbol = table.get(id);
    if (symbol === undefined) continue;
    if (typeof symbol === 'number') bytes.push(symbol);
    else bytes.push(...utf8.encode(symbol));
  }
  return new TextDecoder().decode(Uint8Array.from(bytes)).trim();
}
