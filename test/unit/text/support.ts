import { readFileSync } from 'node:fs';
import { TextTokenizer } from '../../../src/text/tokenizer';
import { SHARED_DIR } from '../../support/shared';

const UPSTREAM = `${SHARED_DIR}fixtures/tiny-random-llama-fp16-genai/`;
const read = (file: string) => JSON.parse(readFileSync(UPSTREAM + file, 'utf8')) as Record<string, unknown>;

/** The real Llama-2 tokenizer (SentencePiece BPE with byte fallback) of the upstream fixture. */
export const llamaTokenizer = () => new TextTokenizer(read('tokenizer.json'), read('tokenizer_config.json'));
export const llamaTokenizerConfig = () => read('tokenizer_config.json');
