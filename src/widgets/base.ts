import { APIError, type Vaani } from '../index';
import { sharedVaani } from './config';
import { labelsFor, type Labels } from './labels';
import { MISSING_MODEL, WidgetError } from './service';
import { BASE_CSS, sheet } from './styles';

export type WidgetState =
  'idle' | 'loading' | 'listening' | 'transcribing' | 'thinking' | 'speaking' | 'paused' | 'error';

export interface StateDetail {
  state: WidgetState;
  /** What the status line shows (and screen readers hear). */
  message: string;
}

export interface ErrorDetail {
  code: string;
  message: string;
  status?: number;
}

/**
 * What every Vaani element shares: an open shadow root with the shared styles, localised labels
 * (`lang` of the element or an ancestor; a `labels` property overrides any of them), the `vaani`
 * instance, a status line that is a live region, and the `vaani-state` / `vaani-error` events.
 */
export abstract class VaaniElement extends HTMLElement {
  protected readonly root: ShadowRoot;
  private ownVaani: Vaani | undefined;
  private labelOverrides: Partial<Labels> = {};
  private current: WidgetState = 'idle';
  private rendered = false;
  /** Whether the status line shows the state's own label (re-rendered when the labels change). */
  private ownMessage = false;

  constructor(css: string) {
    super();
    this.root = this.attachShadow({ mode: 'open' });
    this.root.adoptedStyleSheets = [sheet(BASE_CSS), sheet(css)];
  }

  connectedCallback(): void {
    if (!this.rendered) {
      this.rendered = true;
      this.render();
    }
    this.setAttribute('state', this.current);
    this.applyLabels();
  }

  /** Relabels the controls, and the status line unless it shows a message of its own. */
  protected applyLabels(): void {
    this.relabel();
    const status = this.piece('status');
    if (status && !this.ownMessage) status.textContent = status.title = this.stateLabel(this.current);
  }

  private stateLabel(state: WidgetState): string {
    return state === 'error' ? this.labels.engineError : this.labels[state];
  }

  /** Builds the shadow DOM (once). */
  protected abstract render(): void;
  /** Applies the labels to buttons and regions (after render, and when labels or lang change). */
  protected abstract relabel(): void;

  /** The instance this element uses; defaults to the shared one (`Vaani.widgets.use(ai)`). */
  get vaani(): Vaani {
    return this.ownVaani ?? sharedVaani();
  }
  set vaani(ai: Vaani) {
    this.ownVaani = ai;
  }

  get labels(): Labels {
    const lang = (this.closest('[lang]') as HTMLElement | null)?.lang || document.documentElement.lang;
    return { ...labelsFor(lang), ...this.labelOverrides };
  }
  set labels(labels: Partial<Labels>) {
    this.labelOverrides = { ...labels };
    if (this.rendered) this.applyLabels();
  }

  get state(): WidgetState {
    return this.current;
  }

  protected piece<T extends Element = HTMLElement>(name: string): T {
    return this.root.querySelector<T>(`[part~="${name}"]`)!;
  }

  protected emit<T>(type: string, detail: T): void {
    this.dispatchEvent(new CustomEvent<T>(type, { detail, bubbles: true, composed: true }));
  }

  /** Moves to `state`; the status line (a polite live region) says `message` or the state's label. */
  protected setState(state: WidgetState, message?: string): void {
    this.current = state;
    this.setAttribute('state', state);
    const text = message ?? this.stateLabel(state);
    this.ownMessage = message !== undefined;
    const status = this.piece('status');
    if (status) {
      status.textContent = text;
      status.title = text;
    }
    this.emit<StateDetail>('vaani-state', { state, message: text });
  }

  /** Shows an error as the error state and fires `vaani-error`; aborts are not errors. */
  protected fail(error: unknown): void {
    if ((error as Error)?.name === 'AbortError') return;
    const known = error instanceof WidgetError || error instanceof APIError ? error : undefined;
    // A route's answer without an OpenAI-shaped body (a proxy's HTML page, say) has no code.
    const code = known ? (known.code ?? 'http_error') : 'internal_error';
    const message = error instanceof Error ? error.message : String(error);
    const labels = this.labels;
    const summary =
      code === 'mic_denied'
        ? labels.micDenied
        : code === 'mic_missing'
          ? labels.micMissing
          : code === 'mic_unavailable'
            ? labels.micUnavailable
            : MISSING_MODEL.has(code)
              ? `${labels.noModel}: ${message}`
              : `${labels.engineError}: ${message}`;
    this.setState('error', summary);
    this.emit<ErrorDetail>('vaani-error', { code, message, status: known?.status });
  }

  /** A number attribute, or `fallback` when absent or not a number. */
  protected numberAttribute(name: string, fallback?: number): number | undefined {
    const value = this.getAttribute(name);
    const parsed = value === null || value.trim() === '' ? NaN : Number(value);
    return Number.isFinite(parsed) ? parsed : fallback;
  }

  /** The language for speech and text: the `language` attribute, else the element's `lang` (inherited). */
  protected get speechLanguage(): string {
    return (
      this.getAttribute('language') ||
      (this.closest('[lang]') as HTMLElement | null)?.lang ||
      document.documentElement.lang ||
      ''
    );
  }
}
