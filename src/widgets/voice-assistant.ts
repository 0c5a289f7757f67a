import {
  DEFAULT_MODELS,
  type Recorder,
  type Recording,
  type SpeechEventDetail,
  type SpeechPauseDetail,
} from '../index';
import { VaaniElement } from './base';
import { renderMarkdown, speakable } from './markdown';
import { closeMicrophone, openMicrophone, recordingOf } from './microphone';
import { SpeechQueue } from './player';
import { SentenceStream, endsSentence } from './sentences';
import { streamChat, synthesize, transcribe, voiceFor } from './service';
import { ICONS } from './styles';
import { setMarkup } from './trusted';
import type { ChatMessage } from './chat';

const STYLES = `
:host { display: flex; flex-direction: column; gap: 0.5rem; inline-size: 100%; max-inline-size: 32rem; padding: 0.75rem; border: 1px solid var(--_border); border-radius: var(--_radius); background: var(--_surface); }
.controls { display: flex; align-items: center; gap: 0.75rem; }
.talk { min-block-size: 3.5rem; min-inline-size: 3.5rem; border-radius: 50%; padding: 0; touch-action: none; }
.talk svg { inline-size: 1.75em; block-size: 1.75em; }
.state { display: flex; flex-direction: column; min-inline-size: 0; flex: 1; }
.latency { font-size: 0.8125em; color: var(--_muted); font-variant-numeric: tabular-nums; min-block-size: 1.25em; }
.log { block-size: var(--vaani-assistant-height, 12rem); overflow-y: auto; overflow-wrap: anywhere; display: flex; flex-direction: column; gap: 0.35rem; font-size: 0.9375em; }
.turn.user { align-self: flex-end; color: var(--_muted); }
.turn.assistant { align-self: flex-start; }
.turn > :first-child { margin-block-start: 0; }
.turn > :last-child { margin-block-end: 0; }
`;

/**
 * The pause at which the speech so far is transcribed: past the recorder's 100 ms padding (so the
 * transcript is of the same samples the turn would send) and past most gaps between words.
 */
const TRANSCRIBE_AFTER_MS = 150;

/** When one turn's stages happened (performance.now() milliseconds) and what it said. */
export interface AssistantTurn {
  heard: string;
  answer: string;
  /**
   * End of the user's speech: the VAD's speech end on the recording's sample clock (when that sample
   * was captured, not when the VAD got to it); the release in push-to-talk.
   */
  speechEnd: number;
  /** The turn's end was detected (the VAD's silence reached the page, or the release). */
  detected: number;
  /**
   * What ended the utterance: `transcript` (taken at a `final-silence-ms` pause and judged final by
   * `endsTurn`), `silence` (`silence-ms`) or `release` (push-to-talk).
   */
  ended: 'transcript' | 'silence' | 'release';
  transcribed: number;
  /** First chat token. */
  firstToken?: number;
  /** First sample of the answer played. */
  firstAudio?: number;
  /** firstAudio − speechEnd, in ms. */
  latency?: number;
  /** The user spoke over the answer. */
  interrupted: boolean;
}

/** One utterance heard, with when its speech ended and when that was detected (performance.now() ms). */
interface Heard {
  recording: Recording;
  speechEnd: number;
  detected: number;
  ended: AssistantTurn['ended'];
  /** Its transcript, begun at a pause of the same speech. */
  transcript?: Promise<string>;
}

/** A transcription of the speech so far, begun at a pause. */
interface Early {
  speech: number;
  samples: number;
  transcript: Promise<string>;
  controller: AbortController;
}

/**
 * `<vaani-voice-assistant>`: record → transcribe → chat (the conversation kept) → speak the answer
 * sentence by sentence as it streams. `mode="hands-free"` (default: VAD ends each utterance, the
 * microphone stays open, speaking over the answer stops it and starts the next turn) or
 * `mode="push-to-talk"` (hold the button, or Space/Enter on it). Attributes: `stt-model`
 * (speech-stt-v1), `chat-model` (chat-v2), `tts-model` (speech-tts-v1), `voice`, `language`,
 * `system`, `max-tokens` (256), `silence-ms` (700), `final-silence-ms` (300: the silence that ends a turn
 * whose transcript, begun at a 150 ms pause, `endsTurn` — by default, ends a sentence), `no-barge-in`. `messages`, `start()`, `end()`,
 * `lastTurn`, `endsTurn`; `vaani-result` carries each AssistantTurn with its latency.
 */
export class VaaniVoiceAssistant extends VaaniElement {
  static observedAttributes = ['lang', 'mode'];
  messages: ChatMessage[] = [];
  /**
   * Whether a transcript taken at a `final-silence-ms` pause ends the turn there. Default: it ends a
   * sentence; a page can judge otherwise (a command list, a form field's expected answer).
   */
  endsTurn: (transcript: string) => boolean = endsSentence;
  /** A stream to listen to instead of the microphone. Not stopped by the element. */
  stream: MediaStream | undefined;
  lastTurn: AssistantTurn | undefined;
  private active: MediaStream | undefined;
  private recorder: Recorder | undefined;
  private turn: AbortController | undefined;
  private queue: SpeechQueue | undefined;
  private released: number | undefined;
  private holding = false;
  /** The words of a turn its transcript ended that the speaker went on from: they lead the next turn. */
  private carried: { turn: AssistantTurn; words: string } | undefined;
  private session = 0;

  /** `endsTurn(text)`, a throw counting as "not final" (the turn then ends at `silence-ms`), with a warning. */
  private judgesFinal(text: string): boolean {
    try {
      return this.endsTurn(text) === true;
    } catch (error) {
      console.warn(
        `Vaani: endsTurn threw (${error instanceof Error ? error.message : String(error)}); the turn ends at silence-ms.`,
      );
      return false;
    }
  }

  constructor() {
    super(STYLES);
  }

  get handsFree(): boolean {
    return this.getAttribute('mode') !== 'push-to-talk';
  }

  protected render(): void {
    setMarkup(
      this.root,
      `
      <div class="controls">
        <button part="button talk" class="talk" type="button" aria-pressed="false">${ICONS.mic}</button>
        <div class="state">
          <span part="status" class="status" role="status" aria-live="polite"></span>
          <span part="latency" class="latency"></span>
        </div>
      </div>
      <div part="log" class="log" role="log" aria-live="polite" tabindex="0"></div>`,
    );
    const talk = this.piece('talk');
    talk.addEventListener('click', () => {
      if (this.handsFree) void (this.active ? this.end() : this.start());
    });
    talk.addEventListener('pointerdown', (event) => {
      if (this.handsFree) return;
      talk.setPointerCapture(event.pointerId);
      void this.press();
    });
    talk.addEventListener('pointerup', () => this.handsFree || this.release());
    talk.addEventListener('pointercancel', () => this.handsFree || this.release());
    talk.addEventListener('keydown', (event) => {
      if (this.handsFree || (event.key !== ' ' && event.key !== 'Enter')) return;
      event.preventDefault();
      if (!event.repeat) void this.press();
    });
    talk.addEventListener('keyup', (event) => {
      if (!this.handsFree && (event.key === ' ' || event.key === 'Enter')) this.release();
    });
    this.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') void this.end();
    });
  }

  protected relabel(): void {
    const labels = this.labels;
    const talk = this.piece('talk');
    const label = this.handsFree ? (this.active ? labels.endConversation : labels.talk) : labels.holdToTalk;
    talk.setAttribute('aria-label', label);
    talk.title = label;
    talk.setAttribute('aria-pressed', String(!!this.active));
    this.piece('log').setAttribute('aria-label', labels.conversation);
  }

  attributeChangedCallback(): void {
    if (this.isConnected && this.piece('talk')) this.applyLabels();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    void this.end();
  }

  /** Hands-free: opens the microphone and listens until `end()`. */
  async start(): Promise<void> {
    if (this.active) return;
    const session = ++this.session;
    try {
      this.setState('loading');
      this.active = this.stream ?? (await openMicrophone(true));
      this.relabel();
      while (this.session === session && this.active) {
        const heard = await this.listen(true);
        if (this.session !== session) break;
        if (heard.recording.duration) this.runTurn(heard);
      }
    } catch (error) {
      this.fail(error);
      await this.end(false);
    }
  }

  /** Stops listening and speaking; the conversation is kept. */
  async end(idle = true): Promise<void> {
    this.session++;
    this.interrupt();
    const recorder = this.recorder;
    this.recorder = undefined;
    await recorder?.stop().catch(() => undefined);
    if (this.active !== this.stream) closeMicrophone(this.active);
    this.active = undefined;
    if (idle && this.state !== 'error') this.setState('idle');
    if (this.isConnected) this.relabel();
  }

  /** Push-to-talk: press starts a recording (and stops the answer being spoken). */
  private async press(): Promise<void> {
    if (this.recorder || this.holding) return;
    this.holding = true;
    this.interrupt();
    this.released = undefined;
    try {
      this.active ??= this.stream ?? (await openMicrophone(true));
      this.relabel();
      const heard = await this.listen(false);
      if (heard.recording.duration) this.runTurn(heard);
      else this.setState('idle', this.labels.noSpeech);
    } catch (error) {
      this.fail(error);
    } finally {
      this.holding = false;
      if (this.active !== this.stream) closeMicrophone(this.active);
      this.active = undefined;
      this.relabel();
    }
  }

  private release(): void {
    if (!this.holding || this.released !== undefined) return;
    this.released = performance.now();
    void this.recorder?.stop().catch(() => undefined);
  }

  /** One utterance. Hands-free, speech starting while an answer is on its way is a barge-in. */
  private async listen(vad: boolean): Promise<Heard> {
    const silenceMs = this.numberAttribute('silence-ms', 700)!;
    const finalMs = this.numberAttribute('final-silence-ms', 300)!;
    // Transcription starts at a shorter pause, so it runs while the final silence passes.
    const pauseMs = Math.min(finalMs, TRANSCRIBE_AFTER_MS);
    const recorder = (this.recorder = this.vaani.recorder({
      stream: this.active,
      vad: vad ? { silenceMs, ...(finalMs < silenceMs && { pauseMs }) } : false,
    }));
    let speechEnd: number | undefined;
    let detected: number | undefined;
    let early: Early | undefined;
    let atPause = false;
    const stopped = recordingOf(recorder);
    // At a pause the speech so far is transcribed; a transcript judged final (endsTurn) ends the turn
    // then, and one of speech that went on no further is the turn's own.
    recorder.addEventListener('pause', (event) => {
      const pause = (event as CustomEvent<SpeechPauseDetail>).detail;
      early?.controller.abort();
      const controller = new AbortController();
      const transcript = this.transcribe(pause.recording.file, controller.signal);
      const mine = (early = { speech: pause.time, samples: pause.recording.samples.length, transcript, controller });
      transcript.then(
        async (text) => {
          if (early === mine && text && this.judgesFinal(text) && (await pause.end(finalMs))) atPause = true;
        },
        () => undefined,
      );
    });
    recorder.addEventListener('speechstart', (event) => {
      if (this.turn && !this.hasAttribute('no-barge-in')) {
        // An early end the speaker talked on from within silence-ms is undone: one utterance, one turn.
        const last = this.lastTurn;
        const at = (event as CustomEvent<SpeechEventDetail>).detail.at;
        if (last?.ended === 'transcript' && last.heard && at - last.speechEnd < silenceMs)
          this.carried = { turn: last, words: last.heard };
        this.interrupt();
        this.setState('listening');
      }
    });
    recorder.addEventListener('speechend', (event) => {
      speechEnd = (event as CustomEvent<SpeechEventDetail>).detail.at;
      detected = performance.now();
    });
    await recorder.start();
    if (!vad && this.released !== undefined) void recorder.stop().catch(() => undefined);
    if (!this.turn) this.setState('listening');
    const recording = await stopped.catch((error: unknown) => {
      early?.controller.abort();
      throw error;
    });
    if (this.recorder === recorder) this.recorder = undefined;
    // Push-to-talk (or a stop before the VAD's silence): the release, else the stop, ends the speech.
    detected ??= this.released ?? performance.now();
    const same = early && recording.speech?.end === early.speech && recording.samples.length === early.samples;
    if (!same) early?.controller.abort();
    return {
      recording,
      speechEnd: speechEnd ?? detected,
      detected,
      ended: atPause ? 'transcript' : vad ? 'silence' : 'release',
      ...(same && { transcript: early!.transcript }),
    };
  }

  /** Stops the turn in flight: its chat stream, synthesis and playback. */
  private interrupt(): void {
    if (this.lastTurn && this.turn) this.lastTurn.interrupted = true;
    this.turn?.abort();
    this.turn = undefined;
    this.queue?.stop();
    this.queue = undefined;
  }

  private runTurn(heard: Heard): void {
    const { speechEnd, detected, ended } = heard;
    const carried = this.carried?.words;
    this.carried = undefined;
    this.interrupt();
    const controller = (this.turn = new AbortController());
    const turn: AssistantTurn = {
      heard: '',
      answer: '',
      speechEnd,
      detected,
      ended,
      transcribed: 0,
      interrupted: false,
    };
    this.lastTurn = turn;
    this.converse(heard, turn, controller, carried).then(
      () => this.emit<AssistantTurn>('vaani-result', { ...turn, interrupted: controller.signal.aborted }),
      (error) => {
        if (controller.signal.aborted) this.emit<AssistantTurn>('vaani-result', { ...turn, interrupted: true });
        else this.fail(error);
      },
    );
  }

  private transcribe(file: File, signal: AbortSignal): Promise<string> {
    return transcribe(this.vaani, file, {
      model: this.getAttribute('stt-model') || DEFAULT_MODELS.transcription,
      language: this.getAttribute('language')?.split('-')[0] || undefined,
      signal,
    });
  }

  private async converse(
    { recording, transcript }: Heard,
    turn: AssistantTurn,
    controller: AbortController,
    carried?: string,
  ): Promise<void> {
    const signal = controller.signal;
    this.setState('transcribing');
    const heard = await (transcript?.catch(() => this.transcribe(recording.file, signal)) ??
      this.transcribe(recording.file, signal));
    turn.heard = [carried, heard].filter(Boolean).join(' ');
    turn.transcribed = performance.now();
    if (signal.aborted) return;
    if (!turn.heard) {
      this.turn = undefined;
      this.setState(this.active && this.handsFree ? 'listening' : 'idle', this.labels.noSpeech);
      return;
    }
    const asked = this.line('user', turn.heard);
    this.messages.push({ role: 'user', content: turn.heard });
    this.setState('thinking');
    const voice = this.getAttribute('voice') || (await voiceFor(this.vaani, this.speechLanguage || 'en'));
    const ttsModel = this.getAttribute('tts-model') || DEFAULT_MODELS.speech;
    const queue = (this.queue = new SpeechQueue(
      (text, queueSignal) => synthesize(this.vaani, text, { model: ttsModel, voice, signal: queueSignal }),
      {
        firstAudio: (at) => {
          turn.firstAudio = at;
          turn.latency = at - turn.speechEnd;
          this.piece('latency').textContent = `${this.labels.latency} ${Math.round(turn.latency)} ms`;
          this.setState('speaking');
        },
      },
    ));
    const line = this.line('assistant', '');
    const sentences = new SentenceStream(this.speechLanguage);
    const say = (text: string | undefined) => {
      const words = text && speakable(text);
      if (words) queue.add(words);
    };
    const system = this.getAttribute('system');
    try {
      const stream = await streamChat(
        this.vaani,
        {
          model: this.getAttribute('chat-model') || DEFAULT_MODELS.chat,
          messages: [...(system ? [{ role: 'system', content: system }] : []), ...this.messages],
          max_tokens: this.numberAttribute('max-tokens', 256),
        },
        signal,
      );
      for await (const delta of stream.deltas) {
        if (!delta.content) continue;
        turn.firstToken ??= performance.now();
        turn.answer += delta.content;
        line.replaceChildren(renderMarkdown(turn.answer));
        for (const sentence of sentences.push(delta.content)) say(sentence);
      }
      say(sentences.flush());
      queue.end();
      await queue.done;
    } finally {
      // A turn cut off before any answer leaves no question behind: roles keep alternating. One the
      // speaker talked on from leaves neither: its words lead the next turn.
      const undone = this.carried?.turn === turn;
      if (turn.answer && !undone) this.messages.push({ role: 'assistant', content: turn.answer });
      else {
        this.messages.pop();
        line.remove();
        if (undone) asked.remove();
      }
    }
    if (signal.aborted) return;
    this.turn = undefined;
    this.queue = undefined;
    this.setState(this.active && this.handsFree ? 'listening' : 'idle');
  }

  private line(role: 'user' | 'assistant', text: string): HTMLElement {
    const element = document.createElement('div');
    element.className = `turn ${role}`;
    element.setAttribute('part', `turn ${role}`);
    element.setAttribute('aria-label', role === 'user' ? this.labels.you : this.labels.assistant);
    element.textContent = text;
    const log = this.piece('log');
    log.append(element);
    log.scrollTop = log.scrollHeight;
    return element;
  }
}
