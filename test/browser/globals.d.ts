import type OpenAI from 'openai';
import type { zodFunction, zodResponseFormat } from 'openai/helpers/zod';
import type { z } from 'zod';
import type { Ajv } from 'ajv';
import type * as vaani from '../../src/index';
import type { createVaani } from '../../src/index';
import type * as widgets from '../../src/widgets/index';
import type { createVaaniProvider } from '../../src/ai-sdk/index';
import type * as ai from 'ai';
import type { ChatOpenAI, OpenAIEmbeddings } from '@langchain/openai';

declare global {
  interface Window {
    /** The library's exports (harness.html, data.html: all of them), and the widgets' where a page loads them. */
    Vaani: typeof vaani & { widgets: typeof widgets };
    OpenAI: typeof OpenAI;
    /** support/images.ts: a WASM Vaani on the diffusers export at `url`, with the SDK and helpers. */
    imageService(url: string): {
      ai: ReturnType<typeof createVaani>;
      client: OpenAI;
      post(path: string, body: object | FormData): Promise<Response>;
      pixels(image: Blob | string): Promise<{ width: number; height: number; rgba: number[] }>;
    };
    /** pages/ai-sdk.html */
    aiSdk: {
      createVaaniProvider: typeof createVaaniProvider;
      ai: typeof ai;
      z: typeof z;
      ChatOpenAI: typeof ChatOpenAI;
      OpenAIEmbeddings: typeof OpenAIEmbeddings;
    };
    /** pages/structured.html */
    structured: {
      z: typeof z;
      zodResponseFormat: typeof zodResponseFormat;
      zodFunction: typeof zodFunction;
      Ajv: typeof Ajv;
    };
  }
}
