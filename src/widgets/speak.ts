import { DEFAULT_MODELS } from '../index';
import { VaaniElement } from './base';
import { SpeechQueue } from './player';
import { splitSentences, type Sentence } from './sentences';
import { synthesize, voiceCredit, voiceFor } from './service';
import { ICONS, sheet } from './styles';
import { setMarkup } from './trusted';

const STYLES = `
:host { display: inline-flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; }
.status { inline-size: 10em; }
.credit { flex-basis: 100%; font-size: 0.8em; opacity: 0.8; }
.credit:empty { display: none; }
slot { display: block; flex-basis: 100%; }
`;

/** Colours the sentence being read in the page's own text (CSS Custom Highlight API). */
const HIGHLIGHT = 'vaani-speaking';
const HIGHLIGHT_CSS = `::highlight(${HIGHLIGHT}) { background-color: var(--vaani-highlight, #fde68a); color: #1c1c22; }`;

export interface SpeakResult {
  /** Sentences read (all of them unless stopped). */
  sentences: number;
  stopped: boolean;
}

/**
 * `<vaani-speak>`: reads aloud its `text` attribute, else the element named by `for`, else its own
 * text, sentence by sentence (the first sentence plays while the next are synthesised), and
 * highlights the sentence being spoken. Play/pause and stop buttons. Attributes: `voice` (an id of
 * GET /voices; default the first voice of the element's language), `speed`, `stability`, `style`,
 * `model` (speech-tts-v1).
 */
export class VaaniSpeak extends VaaniElement {
  static observedAttributes = ['lang'];
  private queue: SpeechQueue | undefined;
  private sentenceRanges: (Range | undefined)[] = [];
  private highlighted: Range | undefined;
  private total = 0;
  /** Index of the sentence being spoken, -1 when none. */
  sentence = -1;

  constructor() {
    super(STYLES);
  }

  protected render(): void {
    setMarkup(
      this.root,
      `
      <button part="button play" type="button" aria-pressed="false">${ICONS.play}</button>
      <button part="button stop" class="secondary" type="button" disabled>${ICONS.stop}</button>
      <span part="status" class="status" role="status" aria-live="polite"></span>
      <small part="credit" class="credit"></small>
      <slot part="text"></slot>`,
    );
    this.piece('play').addEventListener('click', () => this.toggle());
    this.piece('stop').addEventListener('click', () => this.stop());
    if (!document.adoptedStyleSheets.includes(sheet(HIGHLIGHT_CSS)))
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet(HIGHLIGHT_CSS)];
  }

  protected relabel(): void {
    const labels = this.labels;
    const playing = this.state === 'speaking' || this.state === 'loading';
    const play = this.piece('play');
    setMarkup(play, playing ? ICONS.pause : ICONS.play);
    play.setAttribute('aria-label', playing ? labels.pause : this.state === 'paused' ? labels.resume : labels.play);
    play.setAttribute('aria-pressed', String(playing));
    play.title = play.getAttribute('aria-label')!;
    this.piece('stop').setAttribute('aria-label', labels.stop);
    this.piece('stop').title = labels.stop;
  }

  attributeChangedCallback(): void {
    if (this.isConnected && this.piece('play')) this.applyLabels();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.stop();
  }

  /** Play, pause or resume. */
  toggle(): void {
    if (!this.queue) void this.play();
    else if (this.state === 'paused') void this.resume();
    else void this.pause();
  }

  async pause(): Promise<void> {
    if (!this.queue || this.state === 'paused') return;
    await this.queue.pause();
    this.setState('paused');
    this.relabel();
  }

  async resume(): Promise<void> {
    if (!this.queue || this.state !== 'paused') return;
    await this.queue.resume();
    this.setState('speaking');
    this.relabel();
  }

  stop(): void {
    this.queue?.stop();
  }

  /** Reads the text from the start; resolves when it has been read or stopped. */
  async play(): Promise<SpeakResult> {
    this.queue?.stop();
    const { text, sentences } = this.source();
    this.total = sentences.length;
    const model = this.getAttribute('model') || DEFAULT_MODELS.speech;
    const options = {
      model,
      speed: this.numberAttribute('speed'),
      stability: this.numberAttribute('stability'),
      style: this.numberAttribute('style'),
    };
    let played = 0;
    const voice = (async () =>
      this.getAttribute('voice') || (await voiceFor(this.vaani, this.speechLanguage || 'en')))();
    // The credit line a CC-BY voice asks for, shown while the element speaks with it.
    void voice
      .then((id) => voiceCredit(this.vaani, id))
      .then((credit) => (this.piece('credit').textContent = credit ?? ''))
      .catch(() => undefined);
    const queue = (this.queue = new SpeechQueue(
      async (input, signal) => synthesize(this.vaani, input, { ...options, voice: await voice, signal }),
      {
        sentence: (index) => {
          played = index + 1;
          this.showSentence(index, sentences[index]!);
        },
      },
    ));
    this.piece<HTMLButtonElement>('stop').disabled = false;
    if (!sentences.length) {
      queue.stop();
      this.queue = undefined;
      this.setState('idle', this.labels.nothingToRead);
      this.piece<HTMLButtonElement>('stop').disabled = true;
      return { sentences: 0, stopped: false };
    }
    this.setState('loading');
    this.relabel();
    for (const sentence of sentences) queue.add(sentence.text);
    queue.end();
    try {
      await queue.done;
      if (this.queue === queue) this.setState('idle', queue.stopped ? this.labels.stopped : undefined);
      const result = { sentences: played, stopped: queue.stopped };
      this.emit<SpeakResult & { text: string }>('vaani-result', { ...result, text });
      return result;
    } catch (error) {
      this.fail(error);
      throw error;
    } finally {
      if (this.queue === queue) {
        this.queue = undefined;
        this.clearHighlight();
        this.sentence = -1;
        this.piece<HTMLButtonElement>('stop').disabled = true;
        this.relabel();
      }
    }
  }

  /** The text to read and its sentences, with a DOM range for each when the text is on the page. */
  private source(): { text: string; sentences: Sentence[] } {
    const lang = this.speechLanguage;
    const attribute = this.getAttribute('text');
    if (attribute !== null) {
      this.sentenceRanges = [];
      return { text: attribute, sentences: splitSentences(attribute, lang) };
    }
    const id = this.getAttribute('for');
    const element = id ? (this.getRootNode() as Document | ShadowRoot).getElementById?.(id) : this;
    const pieces = element ? textPieces(element) : [];
    const text = pieces.map((piece) => piece.text).join('');
    const sentences = splitSentences(text, lang);
    this.sentenceRanges = sentences.map((sentence) => rangeOf(pieces, sentence.start, sentence.end));
    return { text, sentences };
  }

  private showSentence(index: number, sentence: Sentence): void {
    this.sentence = index;
    this.clearHighlight();
    const range = this.sentenceRanges[index];
    if (range && typeof Highlight !== 'undefined') {
      const highlight = CSS.highlights.get(HIGHLIGHT) ?? new Highlight();
      highlight.add(range);
      CSS.highlights.set(HIGHLIGHT, highlight);
      this.highlighted = range;
    }
    if (this.state !== 'paused') this.setState('speaking', `${this.labels.speaking} ${index + 1}/${this.total}`);
    this.relabel();
    this.emit('vaani-sentence', { index, text: sentence.text });
  }

  private clearHighlight(): void {
    if (this.highlighted) CSS.highlights.get(HIGHLIGHT)?.delete(this.highlighted);
    this.highlighted = undefined;
  }
}

interface Piece {
  /** A text node, or a line break standing for the edge of a block (a paragraph, a list item). */
  node?: Text;
  text: string;
  start: number;
}

const blockOf = (node: Node): Element | null => {
  let element = node.parentElement;
  while (element && getComputedStyle(element).display.startsWith('inline')) element = element.parentElement;
  return element;
};

/** The element's text nodes in order, with a line break between blocks so that sentences end there. */
function textPieces(element: Element): Piece[] {
  const pieces: Piece[] = [];
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  let offset = 0;
  let block: Element | null | undefined;
  for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
    const own = blockOf(node);
    if (block !== undefined && own !== block) {
      pieces.push({ text: '\n', start: offset });
      offset += 1;
    }
    block = own;
    pieces.push({ node, text: node.data, start: offset });
    offset += node.length;
  }
  return pieces;
}

/** A range over the text nodes covering [start, end) of the pieces' joined text. */
function rangeOf(pieces: Piece[], start: number, end: number): Range | undefined {
  const range = new Range();
  let started = false;
  for (const { node, start: at, text } of pieces) {
    if (!node) continue;
    const next = at + text.length;
    if (!started && start < next) {
      range.setStart(node, Math.max(0, start - at));
      started = true;
    }
    if (started && end <= next) {
      range.setEnd(node, end - at);
      return range;
    }
  }
  return undefined;
}
