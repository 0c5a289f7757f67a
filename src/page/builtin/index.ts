import type { EngineKinds } from '../../protocol/engines';
import { completeBuiltin } from './chat';
import { languageModel, type Availability, type LanguageModelStatic } from './prompt-api';
import { VaaniError } from '../../protocol/errors';

/** The engines the browser itself offers (routing's `'builtin'`): today chat, through the Prompt API. */
export function builtinEngines(): Partial<EngineKinds> {
  return languageModel() ? { chat: { complete: (params, hooks) => completeBuiltin(params, hooks.signal, hooks) } } : {};
}

export { unsupported as builtinCannot } from './chat';
export { languageModel } from './prompt-api';

/** `ai.builtin`: the browser's own model, before any request. */
export interface BuiltinModel {
  /** 'available', 'downloadable', 'downloading', 'unavailable' (the Prompt API's), or 'absent' without one. */
  availability(): Promise<Availability | 'absent'>;
  /**
   * Downloads the browser's model where it is `downloadable` (browsers ask for a user gesture: call
   * it from a click), reporting progress from 0 to 1; resolves once it is available.
   */
  download(options?: { signal?: AbortSignal; onProgress?: (fraction: number) => void }): Promise<void>;
}

const TEXT = { expectedInputs: [{ type: 'text' as const }], expectedOutputs: [{ type: 'text' as const }] };

/** Settled answers ('available', 'unavailable') per Prompt API, kept until a download; the others change by themselves. */
const settled = new WeakMap<LanguageModelStatic, Availability>();

/** The Prompt API's availability for text, as `GET /v1/models` shows it: asked again only while it can change. */
export async function builtinAvailability(): Promise<Availability | 'absent'> {
  const api = languageModel();
  if (!api) return 'absent';
  const known = settled.get(api);
  if (known) return known;
  let answer: Availability;
  try {
    answer = await api.availability(TEXT);
  } catch {
    answer = 'unavailable';
  }
  if (answer === 'available' || answer === 'unavailable') settled.set(api, answer);
  return answer;
}

const forget = () => {
  const api = languageModel();
  if (api) settled.delete(api);
};

export const builtinModel: BuiltinModel = {
  async availability() {
    forget();
    return builtinAvailability();
  },
  async download({ signal, onProgress } = {}) {
    forget();
    const api = languageModel();
    if (!api) throw new VaaniError("This browser has no built-in language model (the Prompt API's LanguageModel).");
    const session = await api.create({
      ...TEXT,
      ...(signal ? { signal } : {}),
      monitor: (monitor) =>
        monitor.addEventListener('downloadprogress', (event) => onProgress?.((event as ProgressEvent).loaded)),
    });
    session.destroy();
  },
};
