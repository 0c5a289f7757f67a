import { DEFAULT_MODELS, type LevelDetail, type Recorder, type Recording } from '../index';
import { VaaniElement } from './base';
import { CaretKeeper } from './caret';
import { closeMicrophone, openMicrophone, recordingOf } from './microphone';
import { transcribe } from './service';
import { ICONS } from './styles';
import { setMarkup } from './trusted';

const STYLES = `
:host { display: inline-grid; grid-template-columns: auto 3.5rem 3.2em; grid-template-rows: auto auto; align-items: center; column-gap: 0.5rem; inline-size: max-content; min-inline-size: 12rem; }
.meter { block-size: 0.5rem; border-radius: 0.25rem; background: var(--_border); overflow: hidden; }
.meter > span { display: block; block-size: 100%; background: var(--_accent); transform-origin: left; transform: scaleX(0); transition: transform 60ms linear; }
.time { font-variant-numeric: tabular-nums; color: var(--_muted); font-size: 0.875em; }
.status { grid-column: 1 / -1; max-inline-size: 100%; }
`;

export interface DictationResult {
  text: string;
  /** The element the text went into, if any. */
  target: HTMLElement | null;
  /** Seconds of speech transcribed. */
  duration: number;
}

/**
 * `<vaani-dictate for="field-id">`: a mic button that records with VAD (stops by itself after a
 * silence), shows a level meter and the elapsed time, transcribes, and inserts the text at the
 * caret of the field (`<input>`, `<textarea>`, contenteditable), firing `vaani-result` either way.
 * Attributes: `for`, `language` (ISO-639-1; detected when absent), `translate` (into English),
 * `continuous` (one transcription per utterance until pressed again), `model` (speech-stt-v1),
 * `silence-ms` (1000).
 */
export class VaaniDictate extends VaaniElement {
  static observedAttributes = ['lang'];
  /** A stream to record instead of the microphone (e.g. a call's audio). Not stopped by the element. */
  stream: MediaStream | undefined;
  private session: AbortController | undefined;
  private recorder: Recorder | undefined;
  private keeper: CaretKeeper | undefined;
  private keptFor: HTMLElement | undefined;

  constructor() {
    super(STYLES);
  }

  protected render(): void {
    setMarkup(
      this.root,
      `
      <button part="button" type="button" aria-pressed="false">${ICONS.mic}</button>
      <div part="meter" class="meter" aria-hidden="true"><span></span></div>
      <span part="time" class="time" aria-hidden="true">0:00</span>
      <span part="status" class="status" role="status" aria-live="polite"></span>`,
    );
    this.piece('button').addEventListener('click', () => this.toggle());
    this.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && this.session) this.cancel();
    });
  }

  protected relabel(): void {
    const listening = !!this.session;
    this.piece('button').setAttribute('aria-label', listening ? this.labels.stopDictating : this.labels.dictate);
    this.piece('button').title = listening ? this.labels.stopDictating : this.labels.dictate;
  }

  attributeChangedCallback(): void {
    if (this.isConnected && this.piece('button')) this.applyLabels();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.target();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.cancel();
    this.keeper?.dispose();
    this.keeper = this.keptFor = undefined;
  }

  /** The field named by `for` (looked up in the element's own tree: the document or a shadow root). */
  private target(): HTMLElement | null {
    const id = this.getAttribute('for');
    const found = id ? ((this.getRootNode() as Document | ShadowRoot).getElementById?.(id) ?? null) : null;
    if (found !== this.keptFor) {
      this.keeper?.dispose();
      this.keeper = found ? new CaretKeeper(found) : undefined;
      this.keptFor = found ?? undefined;
    }
    return found;
  }

  /** Starts listening, or (while listening) ends the utterance and transcribes it. */
  toggle(): void {
    if (this.recorder) void this.finishUtterance();
    else if (!this.session) void this.start();
  }

  /** Stops listening and drops what was not transcribed yet. */
  cancel(): void {
    this.session?.abort();
  }

  async start(): Promise<void> {
    if (this.session) return;
    const session = (this.session = new AbortController());
    this.relabel();
    this.piece('button').setAttribute('aria-pressed', 'true');
    const ownStream = !this.stream;
    let stream: MediaStream | undefined;
    let pending = Promise.resolve();
    try {
      this.setState('loading');
      stream = this.stream ?? (await openMicrophone());
      do {
        const recording = await this.listen(stream, session.signal);
        if (session.signal.aborted) break;
        if (!recording.duration) {
          if (!this.hasAttribute('continuous')) this.setState('idle', this.labels.noSpeech);
          continue;
        }
        if (!this.hasAttribute('continuous')) this.session = undefined;
        // A failed transcription ends the session at once (continuous included): not kept for its end.
        pending = pending
          .then(() => this.transcribe(recording, session.signal))
          .catch((error: unknown) => {
            this.fail(error);
            session.abort();
          });
        if (!this.hasAttribute('continuous')) await pending;
      } while (this.hasAttribute('continuous') && this.session === session && !session.signal.aborted);
      await pending;
    } catch (error) {
      this.fail(error);
    } finally {
      if (ownStream) closeMicrophone(stream);
      this.stopMeter();
      if (this.session === session) this.session = undefined;
      if (this.state !== 'error' && (session.signal.aborted || this.state === 'listening' || this.state === 'loading'))
        this.setState('idle');
      this.piece('button').setAttribute('aria-pressed', 'false');
      this.relabel();
    }
  }

  /** One utterance: a recorder with VAD until the silence after speech (or a press), with meter and clock. */
  private async listen(stream: MediaStream, signal: AbortSignal): Promise<Recording> {
    const silenceMs = this.numberAttribute('silence-ms', 1000)!;
    const recorder = (this.recorder = this.vaani.recorder({ stream, vad: { silenceMs } }));
    const stopped = recordingOf(recorder);
    const onAbort = () => void recorder.stop().catch(() => undefined);
    recorder.addEventListener('level', (event) => this.showLevel((event as CustomEvent<LevelDetail>).detail));
    await recorder.start();
    // Cancelled (or a transcription failed) while the recorder started: it stops at once, the state stays.
    if (signal.aborted) onAbort();
    else {
      signal.addEventListener('abort', onAbort, { once: true });
      this.setState('listening');
    }
    try {
      return await stopped;
    } finally {
      signal.removeEventListener('abort', onAbort);
      this.stopMeter();
      this.recorder = undefined;
    }
  }

  private async finishUtterance(): Promise<void> {
    if (!this.hasAttribute('continuous')) {
      await this.recorder?.stop().catch(() => undefined);
      return;
    }
    // Continuous: the press ends the session after this utterance.
    const session = this.session;
    this.session = undefined;
    await this.recorder?.stop().catch(() => undefined);
    if (session) this.relabel();
  }

  private async transcribe(recording: Recording, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return;
    if (!this.session) this.setState('transcribing');
    const language = this.getAttribute('language')?.split('-')[0] || undefined;
    const text = await transcribe(this.vaani, recording.file, {
      model: this.getAttribute('model') || DEFAULT_MODELS.transcription,
      language,
      translate: this.hasAttribute('translate'),
      signal,
    });
    const target = this.target();
    if (text && target) this.keeper?.insert(text);
    this.emit<DictationResult>('vaani-result', { text, target, duration: recording.duration });
    if (!this.session) this.setState('idle', text ? this.labels.inserted : this.labels.noSpeech);
  }

  /** The meter and the clock, both from the recording's samples (the clock counts audio recorded, not wall time). */
  private showLevel({ rms, time }: LevelDetail): void {
    this.showTime(time);
    const db = 20 * Math.log10(Math.max(rms, 1e-5));
    const fraction = Math.min(1, Math.max(0, (db + 60) / 60));
    this.piece('meter').querySelector('span')!.style.transform = `scaleX(${fraction.toFixed(3)})`;
  }

  private showTime(seconds: number): void {
    const whole = Math.floor(seconds);
    this.piece('time').textContent = `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
  }

  private stopMeter(): void {
    this.piece('meter')?.querySelector('span')?.style.setProperty('transform', 'scaleX(0)');
  }
}
