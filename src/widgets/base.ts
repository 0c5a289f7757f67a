import { APIError, type DownloadConsent, type Vaani } from '../index';
import { sharedVaani } from './config';
import { labelsFor, type Labels } from './labels';
import { sizeIn, timeIn } from './quantities';
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
  /** This element's download consent dialog, registered with the instance it uses (`ai.plan.confirmer`). */
  private consentOff: (() => void) | undefined;
  /** Answers the consent dialog shown, if any. */
  private answerConsent: ((answer: boolean) => void) | undefined;

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

  disconnectedCallback(): void {
    this.consentOff?.();
    this.consentOff = undefined;
    this.answerConsent?.(false);
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

  /**
   * The instance this element uses; defaults to the shared one (`Vaani.widgets.use(ai)`). A connected
   * element that reaches for it becomes the newest consent dialog of that instance: a download the
   * policy (`createVaani({ fit })`) holds is asked here unless the app gave `fit.confirm`.
   */
  get vaani(): Vaani {
    const ai = this.ownVaani ?? sharedVaani();
    if (this.isConnected) {
      this.consentOff?.();
      this.consentOff = ai.plan.confirmer((plan) => this.askDownload(plan));
    }
    return ai;
  }
  set vaani(ai: Vaani) {
    this.ownVaani = ai;
  }

  get labels(): Labels {
    return { ...labelsFor(this.labelLang), ...this.labelOverrides };
  }
  /** The language of the labels: `lang` of the element or an ancestor, else the document's. */
  private get labelLang(): string {
    return (this.closest('[lang]') as HTMLElement | null)?.lang || document.documentElement.lang;
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

  /**
   * Asks whether to download a model ("Download 512 MB for offline chat? ~7 min on this
   * connection"): a non-modal alert dialog in the element with Download and "Use the server" (or
   * "Not now" without a remote); focus moves to Download and returns after; Escape declines.
   */
  protected askDownload(plan: DownloadConsent): Promise<boolean> {
    const labels = this.labels;
    const use =
      { chat: labels.forChat, transcription: labels.forTranscription, speech: labels.forSpeech }[plan.consent.for] ??
      labels.forOther;
    const lang = this.labelLang;
    const { remaining_bytes: bytes, seconds } = plan.download;
    const { size: sizeWords, time: timeWords } = plan.consent;
    const size = bytes !== null && sizeWords ? sizeIn(bytes, lang, sizeWords) : labels.sizeUnknown;
    const question = labels.downloadAsk.replace('{size}', size).replace('{use}', use);
    const time = seconds && timeWords ? labels.downloadTime.replace('{time}', timeIn(seconds, lang, timeWords)) : '';
    this.answerConsent?.(false);
    const box = document.createElement('div');
    box.setAttribute('role', 'alertdialog');
    box.setAttribute('part', 'consent');
    box.className = 'consent';
    box.setAttribute('aria-labelledby', 'vaani-consent-question');
    box.setAttribute('aria-describedby', 'vaani-consent-time');
    const text = document.createElement('p');
    text.id = 'vaani-consent-question';
    text.textContent = question;
    const detail = document.createElement('p');
    detail.id = 'vaani-consent-time';
    detail.textContent = time;
    const yes = document.createElement('button');
    yes.type = 'button';
    yes.setAttribute('part', 'consent-download');
    yes.textContent = labels.download;
    const no = document.createElement('button');
    no.type = 'button';
    no.className = 'secondary';
    no.setAttribute('part', 'consent-decline');
    no.textContent = plan.consent.remote ? labels.useServer : labels.notNow;
    const actions = document.createElement('div');
    actions.className = 'consent-actions';
    actions.append(yes, no);
    box.append(text, detail, actions);
    const before = this.root.activeElement as HTMLElement | null;
    this.root.append(box);
    yes.focus();
    return new Promise<boolean>((resolve) => {
      const finish = (answer: boolean) => {
        if (this.answerConsent !== finish) return;
        this.answerConsent = undefined;
        box.remove();
        if (before?.isConnected) before.focus();
        resolve(answer);
      };
      this.answerConsent = finish;
      yes.addEventListener('click', () => finish(true));
      no.addEventListener('click', () => finish(false));
      box.addEventListener('keydown', (event) => {
        if (event.key !== 'Escape') return;
        event.stopPropagation();
        finish(false);
      });
    });
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
