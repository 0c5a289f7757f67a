import { VaaniElement } from './base';
import './dictate';
import { renderMarkdown } from './markdown';
import { APIError, DEFAULT_MODELS } from '../index';
import { streamChat } from './service';
import { ICONS } from './styles';
import { setMarkup } from './trusted';
import type { VaaniSpeak } from './speak';

const STYLES = `
:host { display: flex; flex-direction: column; gap: 0.5rem; inline-size: 100%; max-inline-size: 48rem; padding: 0.75rem; border: 1px solid var(--_border); border-radius: var(--_radius); background: var(--_surface); }
.bar { display: flex; justify-content: space-between; gap: 0.5rem; font-size: 0.8125em; color: var(--_muted); min-block-size: 1.25rem; }
.stats { font-variant-numeric: tabular-nums; white-space: nowrap; }
.log { block-size: var(--vaani-chat-height, 20rem); overflow-y: auto; overflow-wrap: anywhere; display: flex; flex-direction: column; gap: 0.5rem; padding: 0.25rem; }
.message { max-inline-size: 90%; padding: 0.5rem 0.75rem; border-radius: var(--_radius); }
.message.user { align-self: flex-end; background: var(--_accent); color: var(--_on-accent); white-space: pre-wrap; }
.message.assistant { align-self: flex-start; border: 1px solid var(--_border); }
.message.assistant > .body > :first-child { margin-block-start: 0; }
.message.assistant > .body > :last-child { margin-block-end: 0; }
.message pre { overflow-x: auto; }
.message a { color: var(--_accent); }
form { display: flex; gap: 0.5rem; align-items: flex-end; flex-wrap: wrap; }
textarea { flex: 1 1 12rem; min-inline-size: 0; font: inherit; color: inherit; background: transparent; border: 1px solid var(--_border); border-radius: var(--_radius); padding: 0.5rem; resize: vertical; min-block-size: 2.5rem; }
vaani-dictate { min-inline-size: 0; }
`;

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatResult {
  content: string;
  /** True when Stop (or `stop()`) ended the answer early. */
  stopped: boolean;
  backend: string;
  completionTokens?: number;
  tokensPerSecond?: number;
}

/**
 * `<vaani-chat>`: a chat box bound to a chat model. Streams answers (rendered from Markdown by
 * `marked`, sanitised by DOMPurify), Stop, the backend and tokens/s. Attributes: `model` (chat-v2),
 * `system`, `max-tokens` (512), `temperature`, `placeholder`, `mic` (adds `<vaani-dictate>`),
 * `speak` (a read-aloud button on each answer; `speak="auto"` reads each answer when it is done),
 * `voice`, `language`. `messages` holds the conversation; `send(text)`, `stop()`, `clear()`.
 */
export class VaaniChat extends VaaniElement {
  static observedAttributes = ['lang', 'placeholder', 'mic'];
  messages: ChatMessage[] = [];
  private controller: AbortController | undefined;

  constructor() {
    super(STYLES);
  }

  protected render(): void {
    setMarkup(
      this.root,
      `
      <div class="bar"><span part="model"></span><span part="stats" class="stats" aria-live="off"></span></div>
      <div part="log" class="log" role="log" aria-live="polite" tabindex="0"></div>
      <form part="form">
        <textarea part="input" id="input" rows="2"></textarea>
        <button part="button send" type="submit">${ICONS.send}</button>
        <button part="button stop" class="secondary" type="button" disabled>${ICONS.stop}</button>
      </form>
      <span part="status" class="status" role="status" aria-live="polite"></span>`,
    );
    const form = this.piece<HTMLFormElement>('form');
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.sendInput();
    });
    this.piece('input').addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        void this.sendInput();
      } else if (event.key === 'Escape') this.stop();
    });
    this.piece('stop').addEventListener('click', () => this.stop());
    this.syncMic();
  }

  protected relabel(): void {
    const labels = this.labels;
    const input = this.piece<HTMLTextAreaElement>('input');
    input.setAttribute('aria-label', labels.message);
    input.placeholder = this.getAttribute('placeholder') ?? '';
    this.piece('log').setAttribute('aria-label', labels.conversation);
    for (const name of ['send', 'stop'] as const) {
      this.piece(name).setAttribute('aria-label', labels[name]);
      this.piece(name).title = labels[name];
    }
    this.piece('model').textContent = this.getAttribute('model') || DEFAULT_MODELS.chat;
    const dictate = this.root.querySelector('vaani-dictate');
    if (dictate) dictate.labels = this.labels;
  }

  attributeChangedCallback(): void {
    if (!this.isConnected || !this.piece('input')) return;
    this.syncMic();
    this.applyLabels();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.stop();
  }

  private syncMic(): void {
    const existing = this.root.querySelector('vaani-dictate');
    if (this.hasAttribute('mic') && !existing) {
      const dictate = document.createElement('vaani-dictate');
      dictate.setAttribute('for', 'input');
      dictate.setAttribute('part', 'mic');
      for (const name of ['language', 'lang']) {
        const value = this.getAttribute(name);
        if (value) dictate.setAttribute(name, value);
      }
      dictate.vaani = this.vaani;
      this.piece('input').after(dictate);
    } else if (!this.hasAttribute('mic')) existing?.remove();
  }

  /** Stops the answer being written (what was written stays in the conversation). */
  stop(): void {
    this.controller?.abort();
  }

  /** Forgets the conversation. */
  clear(): void {
    this.stop();
    this.messages = [];
    this.piece('log').replaceChildren();
  }

  private async sendInput(): Promise<void> {
    const input = this.piece<HTMLTextAreaElement>('input');
    const text = input.value.trim();
    if (!text || this.controller) return;
    input.value = '';
    await this.send(text).catch(() => undefined);
  }

  /**
   * Streams an answer to the conversation; one that outgrew the model's context is sent again
   * without its oldest turn, until it fits (the log keeps every turn).
   */
  private async streamWithin(signal: AbortSignal) {
    const system = this.getAttribute('system');
    for (let history = this.messages; ;) {
      try {
        return await streamChat(
          this.vaani,
          {
            model: this.getAttribute('model') || DEFAULT_MODELS.chat,
            messages: [...(system ? [{ role: 'system', content: system }] : []), ...history],
            max_tokens: this.numberAttribute('max-tokens', 512),
            temperature: this.numberAttribute('temperature'),
          },
          signal,
        );
      } catch (error) {
        const next = history.findIndex((message, i) => i > 0 && message.role === 'user');
        if (!(error instanceof APIError && error.code === 'context_length_exceeded') || next < 0) throw error;
        history = history.slice(next);
      }
    }
  }

  /** Sends a user message and streams the answer into the log. */
  async send(text: string): Promise<ChatResult> {
    if (this.controller) throw new Error('An answer is still being written.');
    const controller = (this.controller = new AbortController());
    this.messages.push({ role: 'user', content: text });
    this.bubble('user').textContent = text;
    const answer = this.bubble('assistant');
    const body = answer.appendChild(document.createElement('div'));
    body.className = 'body';
    this.piece<HTMLButtonElement>('stop').disabled = false;
    this.piece<HTMLButtonElement>('send').disabled = true;
    this.setState('thinking');
    let content = '';
    let backend = '';
    let completionTokens: number | undefined;
    let first: number | undefined;
    let frame = 0;
    const draw = () => {
      frame = 0;
      body.replaceChildren(renderMarkdown(content));
      this.scrollLog();
    };
    try {
      const stream = await this.streamWithin(controller.signal);
      backend = stream.backend;
      for await (const delta of stream.deltas) {
        if (delta.completionTokens !== undefined) completionTokens = delta.completionTokens;
        if (!delta.content) continue;
        first ??= performance.now();
        content += delta.content;
        frame ||= requestAnimationFrame(draw);
      }
    } catch (error) {
      if (!controller.signal.aborted) {
        this.fail(error);
        if (!content) answer.remove();
      }
    } finally {
      cancelAnimationFrame(frame);
      draw();
      this.controller = undefined;
      this.piece<HTMLButtonElement>('stop').disabled = true;
      this.piece<HTMLButtonElement>('send').disabled = false;
    }
    const stopped = controller.signal.aborted;
    const seconds = first === undefined ? 0 : (performance.now() - first) / 1000;
    const tokensPerSecond = completionTokens && seconds > 0 ? completionTokens / seconds : undefined;
    const result: ChatResult = { content, stopped, backend, completionTokens, tokensPerSecond };
    if (content || stopped) this.messages.push({ role: 'assistant', content });
    else this.messages.pop();
    if (this.state !== 'error') {
      this.showStats(result);
      this.setState('idle', stopped ? this.labels.stopped : undefined);
      if (content) this.addReadAloud(answer, content);
      this.emit<ChatResult>('vaani-result', result);
    }
    return result;
  }

  private showStats({ backend, tokensPerSecond }: ChatResult): void {
    const speed = tokensPerSecond ? ` · ${tokensPerSecond.toFixed(1)} ${this.labels.tokensPerSecond}` : '';
    this.piece('stats').textContent = `${backend}${speed}`;
  }

  private addReadAloud(answer: HTMLElement, content: string): void {
    const mode = this.getAttribute('speak');
    if (mode === null) return;
    const speak = document.createElement('vaani-speak') as VaaniSpeak;
    speak.setAttribute('text', answer.querySelector('.body')?.textContent ?? content);
    speak.setAttribute('part', 'speak');
    for (const name of ['voice', 'language', 'lang']) {
      const value = this.getAttribute(name);
      if (value) speak.setAttribute(name, value);
    }
    speak.vaani = this.vaani;
    answer.append(speak);
    if (mode === 'auto') void speak.play().catch(() => undefined);
  }

  private bubble(role: 'user' | 'assistant'): HTMLElement {
    const element = document.createElement('div');
    element.className = `message ${role}`;
    element.setAttribute('part', `message ${role}`);
    element.setAttribute('aria-label', role === 'user' ? this.labels.you : this.labels.assistant);
    element.setAttribute('role', 'article');
    this.piece('log').append(element);
    this.scrollLog();
    return element;
  }

  private scrollLog(): void {
    const log = this.piece('log');
    log.scrollTop = log.scrollHeight;
  }
}
