import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { Tokenizer } from '@huggingface/tokenizers';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { ModelSource } from '../../../src/protocol/options';

export type Body = Record<string, unknown>;

export interface Answer {
  status: number;
  backend: string | null;
  json: ChatCompletion & { error?: { code: string; message: string; param: string | null } };
}

/** POSTs chat completions (stream false) through a fresh Vaani whose chat-v2 is `source`, in order. */
export function complete(
  page: Page,
  source: ModelSource,
  bodies: Body[],
  backend: 'auto' | 'wasm' | 'webgpu' = 'wasm',
): Promise<Answer[]> {
  return page.evaluate(
    async ({ source, bodies, backend }) => {
      const ai = window.Vaani.createVaani({ backend, models: { 'chat-v2': source } });
      const answers = [];
      for (const body of bodies) {
        const response = await ai.fetch('/v1/chat/completions', {
          method: 'POST',
          headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'chat-v2', ...body }),
        });
        answers.push({
          status: response.status,
          backend: response.headers.get('x-vaani-backend'),
          json: await response.json(),
        });
      }
      ai.dispose();
      return answers;
    },
    { source, bodies, backend },
  ) as Promise<Answer[]>;
}

/** Decodes ids with the fixture's own tokenizer (in node), dropping special tokens. */
export function decoderFor(dir: string): (ids: number[]) => string {
  const read = (file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8'));
  const tokenizer = new Tokenizer(read('tokenizer.json'), read('tokenizer_config.json'));
  return (ids) => (ids.length ? tokenizer.decode(ids, { skip_special_tokens: true }) : '');
}
