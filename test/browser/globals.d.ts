import type OpenAI from 'openai';
import type { zodFunction, zodResponseFormat } from 'openai/helpers/zod';
import type { z } from 'zod';
import type { Ajv } from 'ajv';
import type { createVaani } from '../../src/index';
import type * as widgets from '../../src/widgets/index';

declare global {
  interface Window {
    Vaani: { createVaani: typeof createVaani; widgets: typeof widgets };
    OpenAI: typeof OpenAI;
    /** pages/structured.html */
    structured: {
      z: typeof z;
      zodResponseFormat: typeof zodResponseFormat;
      zodFunction: typeof zodFunction;
      Ajv: typeof Ajv;
    };
  }
}
