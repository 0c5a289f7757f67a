/**
 * The browser's built-in language model (the Prompt API, `LanguageModel`), typed from its published
 * IDL (webmachinelearning.github.io/prompt-api) for what Vaani calls.
 */
export type Availability = 'unavailable' | 'downloadable' | 'downloading' | 'available';

export interface LanguageModelMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
  prefix?: boolean;
}

export interface LanguageModelExpected {
  type: 'text';
  languages?: string[];
}

/** Fires `downloadprogress` (a ProgressEvent, `loaded` from 0 to 1) while the model downloads. */
export type CreateMonitor = EventTarget;

export interface LanguageModelCreateOptions {
  expectedInputs?: LanguageModelExpected[];
  expectedOutputs?: LanguageModelExpected[];
  initialPrompts?: LanguageModelMessage[];
  signal?: AbortSignal;
  monitor?: (monitor: CreateMonitor) => void;
}

export interface LanguageModelPromptOptions {
  responseConstraint?: object;
  signal?: AbortSignal;
}

export interface LanguageModelSession {
  prompt(input: string | LanguageModelMessage[], options?: LanguageModelPromptOptions): Promise<string>;
  promptStreaming(input: string | LanguageModelMessage[], options?: LanguageModelPromptOptions): ReadableStream<string>;
  measureContextUsage(input: string | LanguageModelMessage[], options?: LanguageModelPromptOptions): Promise<number>;
  readonly contextUsage: number;
  readonly contextWindow: number;
  destroy(): void;
}

export interface LanguageModelStatic {
  availability(
    options?: Omit<LanguageModelCreateOptions, 'signal' | 'monitor' | 'initialPrompts'>,
  ): Promise<Availability>;
  create(options?: LanguageModelCreateOptions): Promise<LanguageModelSession>;
}

/** The page's `LanguageModel`, when the browser has one. */
export const languageModel = (): LanguageModelStatic | undefined =>
  (globalThis as { LanguageModel?: LanguageModelStatic }).LanguageModel;
