import type { createVaani } from '../../src/index';

type Vaani = ReturnType<typeof createVaani>;

/** POST /v1/chat/completions on `ai` with the bench's key; `body` names no model: chat-v2. */
export const postChat = (ai: Vaani, body: Record<string, unknown>): Promise<Response> =>
  ai.fetch('/v1/chat/completions', {
    method: 'POST',
    headers: { authorization: 'Bearer bench', 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'chat-v2', ...body }),
  });

/** A whole (not streamed) answer timed in the page, with its usage; an error answer throws its message. */
export async function askChat(
  ai: Vaani,
  body: Record<string, unknown>,
): Promise<{ ms: number; usage: { prompt_tokens: number; completion_tokens: number } }> {
  const start = performance.now();
  const response = await postChat(ai, body);
  const json = await response.json();
  if (!response.ok) throw new Error(`vaani: ${json.error.message}`);
  return { ms: performance.now() - start, usage: json.usage };
}

export interface Streamed {
  start: number;
  /** Arrival time of each streamed token: each is one character (a forced one-byte token). */
  times: number[];
  usage: { prompt_tokens: number; completion_tokens: number };
}

/**
 * One greedy chat answer streamed through Vaani's /v1/chat/completions, every step forced to token
 * `forced` by a logit bias (so each token is a delta of its own when it is made), timed in the page.
 */
export async function streamForced(
  ai: Vaani,
  messages: { role: string; content: string }[],
  max: number,
  forced: number,
): Promise<Streamed> {
  const start = performance.now();
  const response = await postChat(ai, {
    messages,
    temperature: 0,
    max_tokens: max,
    logit_bias: { [forced]: 100 },
    stream: true,
    stream_options: { include_usage: true },
  });
  if (!response.ok) throw new Error(`vaani: ${(await response.json()).error.message}`);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const times: number[] = [];
  let usage = { prompt_tokens: 0, completion_tokens: 0 };
  let rest = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const now = performance.now();
    const events = (rest + value).split('\n\n');
    rest = events.pop()!;
    for (const event of events) {
      const data = event.replace(/^data: /, '');
      if (data === '[DONE]') continue;
      const chunk = JSON.parse(data);
      if (chunk.usage) usage = chunk.usage;
      const content: string | undefined = chunk.choices?.[0]?.delta?.content;
      for (let i = 0; i < (content?.length ?? 0); i++) times.push(now);
    }
  }
  return { start, times, usage };
}
