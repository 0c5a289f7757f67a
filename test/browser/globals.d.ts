import type OpenAI from 'openai';
import type { createVaani } from '../../src/index';

declare global {
  interface Window {
    Vaani: { createVaani: typeof createVaani };
    OpenAI: typeof OpenAI;
  }
}
