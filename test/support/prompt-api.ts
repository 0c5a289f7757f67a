/**
 * A stand-in for the browser's built-in model, implementing the Prompt API's published IDL
 * (webmachinelearning.github.io/prompt-api) as a page init script: availability states, download
 * progress on a create monitor, prompt / promptStreaming / measureContextUsage, responseConstraint,
 * the context window (QuotaExceededError), abort, destroy. Its "model" answers deterministically:
 * a JSON value of the constraint's schema, or the words of the last user message echoed back.
 * `globalThis.__promptApi` sets its state ({ availability, contextWindow, failAfterChunks }) and
 * records what it was asked (`calls`).
 */
export function installPromptApi(initial: { availability?: string; contextWindow?: number } = {}): void {
  // Runs as a page init script too: everything it uses is inside this function.
  type Message = { role: string; content: string; prefix?: boolean };
  const state = {
    availability: initial.availability ?? 'available',
    contextWindow: initial.contextWindow ?? 4096,
    failAfterChunks: -1,
    calls: [] as { method: string; input: unknown; options: Record<string, unknown> }[],
  };
  (globalThis as unknown as { __promptApi: typeof state }).__promptApi = state;

  const words = (text: string) => text.split(/\s+/).filter(Boolean);
  const messagesOf = (input: string | Message[]): Message[] =>
    typeof input === 'string' ? [{ role: 'user', content: input }] : input;
  const count = (input: string | Message[]) => messagesOf(input).reduce((n, m) => n + words(m.content).length + 1, 0);
  const abortError = (signal: AbortSignal) =>
    signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');

  /** The smallest value of a JSON Schema (the subset the tests use: object, array, string, number, integer, boolean, enum). */
  const valueOf = (schema: Record<string, unknown>): unknown => {
    if (Array.isArray(schema.enum)) return schema.enum[0];
    switch (schema.type) {
      case 'object': {
        const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
        return Object.fromEntries(Object.entries(props).map(([key, sub]) => [key, valueOf(sub)]));
      }
      case 'array':
        return [valueOf((schema.items ?? {}) as Record<string, unknown>)];
      case 'string':
        return 'namaste';
      case 'number':
      case 'integer':
        return 7;
      case 'boolean':
        return true;
      default:
        return null;
    }
  };

  const answer = (input: Message[], constraint?: object) => {
    if (constraint) return JSON.stringify(valueOf(constraint as Record<string, unknown>));
    const last = [...input].reverse().find((m) => m.role === 'user');
    return `You said: ${last?.content ?? ''}`;
  };

  class LanguageModel extends EventTarget {
    #history: Message[];
    #destroyed = false;
    contextUsage: number;
    readonly contextWindow = state.contextWindow;
    oncontextoverflow = null;

    private constructor(initialPrompts: Message[]) {
      super();
      this.#history = [...initialPrompts];
      this.contextUsage = count(initialPrompts);
    }

    static async availability(options: Record<string, unknown> = {}) {
      state.calls.push({ method: 'availability', input: null, options });
      return state.availability;
    }

    static async create(
      options: { initialPrompts?: Message[]; signal?: AbortSignal; monitor?: (m: EventTarget) => void } = {},
    ) {
      state.calls.push({ method: 'create', input: options.initialPrompts ?? [], options });
      if (options.signal?.aborted) throw abortError(options.signal);
      if (state.availability === 'unavailable')
        throw new DOMException('The model is not available.', 'NotSupportedError');
      const prompts = options.initialPrompts ?? [];
      if (prompts.some((m, i) => m.role === 'system' && i > 0))
        throw new TypeError('A system prompt must be the first initial prompt.');
      const monitor = new EventTarget();
      options.monitor?.(monitor);
      if (state.availability === 'downloadable' || state.availability === 'downloading') {
        for (const loaded of [0, 0.5, 1]) {
          await new Promise((resolve) => setTimeout(resolve, 5));
          if (options.signal?.aborted) throw abortError(options.signal);
          monitor.dispatchEvent(
            Object.assign(new Event('downloadprogress'), { loaded, total: 1, lengthComputable: true }),
          );
        }
        state.availability = 'available';
      }
      const session = new LanguageModel(prompts);
      if (session.contextUsage > session.contextWindow)
        throw new DOMException('The initial prompts are too large.', 'QuotaExceededError');
      return session;
    }

    #check(input: string | Message[], options: { signal?: AbortSignal } = {}) {
      if (this.#destroyed) throw new DOMException('The session was destroyed.', 'InvalidStateError');
      if (options.signal?.aborted) throw abortError(options.signal);
      const messages = messagesOf(input);
      if (messages.some((m) => m.role === 'system')) throw new TypeError('prompt() takes no system messages.');
      if (this.contextUsage + count(messages) > this.contextWindow)
        throw new DOMException('The input is too large for the context window.', 'QuotaExceededError');
      return messages;
    }

    async measureContextUsage(input: string | Message[]) {
      if (this.#destroyed) throw new DOMException('The session was destroyed.', 'InvalidStateError');
      return count(input);
    }

    async prompt(input: string | Message[], options: { signal?: AbortSignal; responseConstraint?: object } = {}) {
      state.calls.push({ method: 'prompt', input, options });
      const messages = this.#check(input, options);
      const reply = answer(messages, options.responseConstraint);
      this.#history.push(...messages, { role: 'assistant', content: reply });
      this.contextUsage += count(messages) + count(reply);
      return reply;
    }

    promptStreaming(input: string | Message[], options: { signal?: AbortSignal; responseConstraint?: object } = {}) {
      state.calls.push({ method: 'promptStreaming', input, options });
      const messages = this.#check(input, options);
      const reply = answer(messages, options.responseConstraint);
      const pieces = reply.match(/\S+\s*/g) ?? [];
      let sent = 0;
      const signal = options.signal;
      return new ReadableStream<string>({
        pull: async (controller) => {
          await new Promise((resolve) => setTimeout(resolve, 2));
          if (signal?.aborted) return controller.error(abortError(signal));
          if (this.#destroyed)
            return controller.error(new DOMException('The session was destroyed.', 'InvalidStateError'));
          if (sent === state.failAfterChunks)
            return controller.error(new DOMException('The model crashed.', 'UnknownError'));
          if (sent === pieces.length) {
            this.#history.push(...messages, { role: 'assistant', content: reply });
            this.contextUsage += count(messages) + count(reply);
            return controller.close();
          }
          controller.enqueue(pieces[sent++]!);
        },
      });
    }

    async clone() {
      const copy = new LanguageModel(this.#history);
      return copy;
    }

    destroy() {
      this.#destroyed = true;
    }
  }
  Object.defineProperty(globalThis, 'LanguageModel', { value: LanguageModel, configurable: true, writable: true });
}
