import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ModelInfo } from './api';
import type { Service } from './service';
import { byId, describeError, el, fillSelect, say } from './ui';

const DEFAULT_MODEL = 'chat-v2';

/** The Chat tab: a streamed conversation with a model picker, Stop, the backend and tokens/s. */
export function mountChat(service: Service): void {
  const form = byId<HTMLFormElement>('chat-form');
  const input = byId<HTMLTextAreaElement>('chat-input');
  const model = byId<HTMLSelectElement>('chat-model');
  const maxTokens = byId<HTMLInputElement>('chat-max-tokens');
  const temperature = byId<HTMLInputElement>('chat-temperature');
  const format = byId<HTMLSelectElement>('chat-format');
  const schema = byId<HTMLTextAreaElement>('chat-schema');
  const raw = byId<HTMLInputElement>('chat-raw');
  const send = byId<HTMLButtonElement>('chat-send');
  const stop = byId<HTMLButtonElement>('chat-stop');
  const log = byId('chat-log');
  const status = byId('chat-status');
  const backend = byId('chat-backend');
  const engine = byId('chat-engine');
  const builtin = byId('chat-builtin');
  const speed = byId('chat-speed');
  const history: ChatCompletionMessageParam[] = [];
  let running: AbortController | undefined;

  /** Where a model answers: in this browser only when its files are here (or reachable), else the remote or nowhere yet. */
  async function where(m: ModelInfo) {
    if (m.builtin) return m.runs_on.builtin === 'available' ? " (the browser's own model)" : ' (not in this browser)';
    if (m.runs_on.local.length && (await service.hasFiles(m.id))) return ' (in this browser)';
    if (m.runs_on.remote) return ' (remote)';
    return m.runs_on.local.length ? ' (no files here: see Models)' : '';
  }

  async function refreshModels() {
    try {
      const { data } = await service.client.models.list();
      const chat = (data as unknown as ModelInfo[]).filter((m) => m.product === 'chat');
      const labels = await Promise.all(chat.map(where));
      const own = chat.find((m) => m.builtin)?.runs_on.builtin;
      builtin.textContent =
        own === undefined || own === 'absent' || own === 'unavailable'
          ? 'built-in: not available in this browser'
          : `built-in: ${own}`;
      fillSelect(
        model,
        chat.map((m, i) => ({ value: m.id, label: `${m.id}${labels[i]}` })),
      );
      if (!picked && chat.some((m) => m.id === DEFAULT_MODEL)) model.value = DEFAULT_MODEL;
    } catch (error) {
      say(status, `Could not list models: ${describeError(error)}`, 'error');
    }
  }

  /** chat-v2 (the small model) unless the user picked another. */
  let picked = false;
  model.addEventListener('change', () => (picked = true));

  const message = (role: string, text: string) => {
    const node = el(
      'div',
      { className: `message ${role}` },
      el('b', { textContent: role === 'user' ? 'You' : model.value }),
      el('span', { textContent: text }),
    );
    log.append(node);
    follow();
    return node.querySelector('span')!;
  };

  /** Keeps the newest message in view while the reader is at the end of the log (not while they scroll back). */
  let atEnd = true;
  log.addEventListener('scroll', () => (atEnd = log.scrollHeight - log.scrollTop - log.clientHeight < 24));
  const follow = () => {
    if (atEnd) log.scrollTop = log.scrollHeight;
  };

  /** Structured outputs: the engine constrains decoding to JSON, or to the schema in the box. */
  function responseFormat() {
    if (format.value === 'json_object') return { type: 'json_object' as const };
    if (format.value !== 'json_schema') return undefined;
    const parsed = JSON.parse(schema.value) as Record<string, unknown>;
    return { type: 'json_schema' as const, json_schema: { name: 'demo', schema: parsed, strict: true } };
  }

  async function ask(text: string) {
    const turn: ChatCompletionMessageParam = { role: 'user', content: text };
    history.push(turn);
    const asked = message('user', text);
    const out = message('assistant', '');
    running = new AbortController();
    send.disabled = true;
    stop.disabled = false;
    backend.textContent = '…';
    engine.textContent = '…';
    speed.textContent = '— tok/s';
    say(status, `Waiting for ${model.value} (the first request loads the model)…`, 'busy');
    const started = performance.now();
    let firstToken = 0;
    let tokens = 0;
    try {
      const common = {
        model: model.value,
        stream: true as const,
        stream_options: { include_usage: true },
        max_tokens: Number(maxTokens.value),
        temperature: Number(temperature.value),
      };
      // "Raw text" continues the typed text through the legacy /v1/completions route (no chat template).
      const { data: stream, response } = await (
        raw.checked
          ? service.client.completions.create({ ...common, prompt: text }, { signal: running.signal })
          : service.client.chat.completions.create(
              { ...common, messages: history, response_format: responseFormat() },
              { signal: running.signal },
            )
      ).withResponse();
      engine.textContent = response.headers.get('x-vaani-engine') ?? '—';
      engine.title = response.headers.get('x-vaani-fallback') ?? 'x-vaani-engine';
      backend.textContent = response.headers.get('x-vaani-backend') || '—';
      for await (const chunk of stream) {
        const choice = chunk.choices[0];
        const delta = choice && ('delta' in choice ? choice.delta.content : choice.text);
        if (delta) {
          firstToken ||= performance.now();
          tokens += 1;
          out.textContent += delta;
          follow();
          say(status, `Streaming… ${tokens} chunks`, 'busy');
        }
        if (chunk.usage) tokens = chunk.usage.completion_tokens;
      }
      // The SDK ends the stream quietly when it is aborted.
      if (running.signal.aborted) throw running.signal.reason;
      const seconds = (performance.now() - (firstToken || started)) / 1000;
      say(
        status,
        `${tokens} tokens · ${(tokens / Math.max(seconds, 1e-3)).toFixed(1)} tokens/s · first token after ${(((firstToken || performance.now()) - started) / 1000).toFixed(2)} s`,
        'ok',
      );
      speed.textContent = `${(tokens / Math.max(seconds, 1e-3)).toFixed(1)} tok/s`;
    } catch (error) {
      if (!running.signal.aborted) backend.textContent = engine.textContent = '—';
      say(
        status,
        running.signal.aborted ? `Stopped after ${tokens} chunks.` : describeError(error),
        running.signal.aborted ? 'info' : 'error',
      );
    } finally {
      if (out.textContent) history.push({ role: 'assistant', content: out.textContent });
      else {
        // Nothing came back: the turn is not part of the conversation, so it is not sent again.
        history.splice(history.indexOf(turn), 1);
        out.parentElement!.remove();
        asked.parentElement!.classList.add('failed');
        asked.parentElement!.title = 'Not answered: not sent again with the next message';
      }
      send.disabled = false;
      stop.disabled = true;
      running = undefined;
    }
  }

  // Enter sends, Shift+Enter is a new line (and Enter while an input method composes is its own).
  input.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
    event.preventDefault();
    form.requestSubmit();
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text || running) return;
    input.value = '';
    void ask(text);
  });
  stop.addEventListener('click', () => running?.abort());
  format.addEventListener('change', () => (schema.hidden = format.value !== 'json_schema'));
  byId('chat-clear').addEventListener('click', () => {
    history.length = 0;
    log.replaceChildren();
    atEnd = true;
  });
  service.addEventListener('change', () => void refreshModels());
  service.addEventListener('files', () => void refreshModels());
}
