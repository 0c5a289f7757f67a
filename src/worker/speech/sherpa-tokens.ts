/** The metadata a sherpa-onnx VITS export writes in its ONNX model's metadata_props. */
export interface SherpaVitsMeta {
  sampleRate: number;
  addBlank: boolean;
  speakers: number;
  frontend: string;
  language: string;
  blankId: number;
  bosId: number;
  eosId: number;
  useEosBos: boolean;
}

const int = (value: string | undefined, fallback: number) => {
  const parsed = value === undefined ? NaN : Number.parseInt(value, 10);
  return Number.isFinite(parsed) ? parsed : fallback;
};

/** sherpa-onnx's reading of the metadata (missing optional keys take its defaults). */
export function sherpaVitsMeta(props: Record<string, string>): SherpaVitsMeta {
  const sampleRate = int(props.sample_rate, NaN);
  if (!Number.isFinite(sampleRate) || sampleRate <= 0)
    throw new Error("the model's metadata has no sample_rate (is it a sherpa-onnx VITS export?)");
  return {
    sampleRate,
    addBlank: int(props.add_blank, 0) !== 0,
    speakers: int(props.n_speakers, 1),
    frontend: props.frontend ?? '',
    language: props.language ?? '',
    blankId: int(props.blank_id, 0),
    bosId: int(props.bos_id, 0),
    eosId: int(props.eos_id, 0),
    useEosBos: int(props.use_eos_bos, 0) !== 0,
  };
}

/**
 * tokens.txt: `<symbol> <id>` per line; the id is the last field, and a line holding only an id is
 * the space symbol. Each symbol is one code point.
 */
export function parseTokens(text: string): Map<string, number> {
  const tokens = new Map<string, number>();
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim()) continue;
    const cut = line.lastIndexOf(' ');
    const id = Number.parseInt(line.slice(cut + 1), 10);
    if (!Number.isFinite(id)) throw new Error(`tokens.txt has a line without an id: '${line}'`);
    tokens.set(cut <= 0 ? ' ' : line.slice(0, cut), id);
  }
  return tokens;
}

const SENTENCE_END = new Set(['.', ':', '?', '!']);

/**
 * Character token ids per sentence as sherpa-onnx's character front end makes them: ASCII lower-cased,
 * unknown characters skipped, the blank after every token (and first) when `add_blank`, BOS/EOS when
 * `use_eos_bos`, a new sentence after `.` `:` `?` `!`; sentences with no tokens are dropped.
 */
export function sherpaCharacterIds(text: string, tokens: Map<string, number>, meta: SherpaVitsMeta): number[][] {
  const lowered = text.replace(/[A-Z]/g, (c) => c.toLowerCase());
  const start = () => [...(meta.useEosBos ? [meta.bosId] : []), ...(meta.addBlank ? [meta.blankId] : [])];
  const sentences: number[][] = [];
  let sentence = start();
  const close = () => {
    if (meta.useEosBos) sentence.push(meta.eosId);
    if (sentence.length > start().length + (meta.useEosBos ? 1 : 0)) sentences.push(sentence);
    sentence = start();
  };
  for (const char of lowered) {
    const id = tokens.get(char);
    if (id !== undefined) sentence.push(id, ...(meta.addBlank ? [meta.blankId] : []));
    if (SENTENCE_END.has(char)) close();
  }
  close();
  return sentences;
}
