import type { EngineKinds } from '../../protocol/engines';
import { completeBuiltin } from './chat';
import { languageModel, type Availability } from './prompt-api';
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

export const builtinModel: BuiltinModel = {
  async availability() {
    const api = languageModel();
    return api ? api.availability(TEXT) : 'absent';
  },
  async download({ signal, onProgress } = {}) {
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
