import type { Service } from './service';
import { byId, describeError, say } from './ui';

type Chunk = { choices: { text: string }[] };
const PAUSE_MS = 600;

/**
 * Code tab: ghost-text completion (fill-in-the-middle between the text before and after the caret,
 * cut at the end of the block) after a pause in typing, aborted by the next keystroke; Tab accepts.
 * Explain / Debug / Optimise stream the instruct model's answer for the whole editor.
 */
export function mountCode(service: Service): void {
  const editor = byId<HTMLTextAreaElement>('code-editor');
  const ghost = byId('code-ghost');
  const output = byId('code-output');
  const status = byId('code-status');
  const language = byId<HTMLSelectElement>('code-language');
  let running: AbortController | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let suggestion = '';

  const cancel = () => {
    clearTimeout(timer);
    running?.abort();
    running = undefined;
    suggestion = '';
    ghost.textContent = '';
  };

  async function stream(body: object, onText: (text: string) => void): Promise<number | undefined> {
    running = new AbortController();
    const started = performance.now();
    let firstToken: number | undefined;
    const chunks = (await service.client.post('/code/completions', {
      body: { ...body, language: language.value, stream: true },
      stream: true,
      signal: running.signal,
    })) as unknown as AsyncIterable<Chunk>;
    for await (const chunk of chunks) {
      const text = chunk.choices[0]?.text ?? '';
      if (text && firstToken === undefined) firstToken = performance.now() - started;
      onText(text);
    }
    return firstToken;
  }

  const complete = async () => {
    const caret = editor.selectionStart;
    say(status, 'Completing…', 'busy');
    try {
      const body = {
        prompt: editor.value.slice(0, caret),
        suffix: editor.value.slice(caret),
        boundary: 'block',
        max_tokens: 64,
      };
      const ttft = await stream(body, (text) => {
        suggestion += text;
        ghost.textContent = suggestion;
      });
      say(status, suggestion ? `Tab accepts · first token in ${Math.round(ttft ?? 0)} ms` : 'No suggestion.', 'ok');
    } catch (error) {
      if ((error as Error).name !== 'AbortError' && !running?.signal.aborted)
        say(status, describeError(error), 'error');
    }
  };

  editor.addEventListener('keydown', (event) => {
    if (event.key === 'Tab' && suggestion) {
      event.preventDefault();
      const caret = editor.selectionStart;
      editor.setRangeText(suggestion, caret, caret, 'end');
      cancel();
      return;
    }
    cancel();
  });
  editor.addEventListener('input', () => {
    cancel();
    timer = setTimeout(() => void complete(), PAUSE_MS);
  });

  for (const mode of ['explain', 'debug', 'optimise'] as const) {
    byId(`code-${mode}`).addEventListener('click', async () => {
      cancel();
      output.textContent = '';
      say(status, `${mode}…`, 'busy');
      try {
        const ttft = await stream({ prompt: editor.value, mode }, (text) => (output.textContent += text));
        say(status, `${mode}: first token in ${Math.round(ttft ?? 0)} ms`, 'ok');
      } catch (error) {
        say(status, describeError(error), 'error');
      }
    });
  }
}
