import type { Service } from './service';
import { byId, describeError, el, say } from './ui';

/** Page tools the demo registers: the page's clock, arithmetic, and a notes list on this tab. */
function registerDemoTools(service: Service, notes: HTMLElement): void {
  service.ai.tools.register({
    name: 'page.time',
    description: 'The current date and time in a time zone (IANA name, e.g. Asia/Kolkata).',
    inputSchema: { type: 'object', properties: { time_zone: { type: 'string' } }, required: ['time_zone'] },
    execute: ({ time_zone }) => new Date().toLocaleString('en-IN', { timeZone: String(time_zone) }),
    annotations: { readOnlyHint: true },
  });
  service.ai.tools.register({
    name: 'calc',
    description: 'Add, subtract, multiply or divide two numbers.',
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' }, op: { enum: ['+', '-', '*', '/'] } },
      required: ['a', 'b', 'op'],
      additionalProperties: false,
    },
    execute: ({ a, b, op }) => {
      const [x, y] = [Number(a), Number(b)];
      return op === '+' ? x + y : op === '-' ? x - y : op === '*' ? x * y : x / y;
    },
    annotations: { readOnlyHint: true },
  });
  // Changes the page: not read-only, so every call waits for Approve or Deny in the trace.
  service.ai.tools.register({
    name: 'notes.add',
    description: 'Add a short note to the list on this page.',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    execute: ({ text }) => {
      notes.append(el('li', { textContent: String(text) }));
      return 'added';
    },
  });
}

type AgentEvent = { type: string; step?: number; delta?: string; call?: { name: string; arguments: string } } & Record<
  string,
  unknown
>;

interface ApprovalRequest {
  id: string;
  name: string;
  arguments: string;
}

interface Run {
  id: string;
  status: string;
  steps: unknown[];
  usage: { total_tokens: number };
  approval_requests: ApprovalRequest[];
}

/** Approve / Deny buttons in the trace for a call waiting for approval: the app's mcp_approval_response. */
function askApproval(line: (text: string, kind?: string) => HTMLElement, request: ApprovalRequest) {
  const item = line(`? ${request.name}(${request.arguments}) wants to run: `, 'muted');
  return new Promise<{ type: string; approval_request_id: string; approve: boolean }>((resolve) => {
    const answer = (approve: boolean) => () => {
      item.append(approve ? ' approved' : ' denied');
      for (const button of item.querySelectorAll('button')) button.remove();
      resolve({ type: 'mcp_approval_response', approval_request_id: request.id, approve });
    };
    item.append(
      el('button', { type: 'button', textContent: 'Approve', onclick: answer(true) }),
      el('button', { type: 'button', textContent: 'Deny', onclick: answer(false) }),
    );
  });
}

/** Reads named SSE events from a response body. */
async function* events(response: Response): AsyncGenerator<AgentEvent> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const data = buffer
        .slice(0, end)
        .split('\n')
        .find((line) => line.startsWith('data: '))
        ?.slice(6);
      buffer = buffer.slice(end + 2);
      if (data && data !== '[DONE]') yield JSON.parse(data) as AgentEvent;
    }
  }
}

/**
 * Agents tab: /v1/agents/run over the page's tools (streamed trace: steps, calls, results, text),
 * and a conversation through /v1/responses chained with previous_response_id.
 */
export function mountAgents(service: Service): void {
  const trace = byId('agents-trace');
  const status = byId('agents-status');
  const stop = byId<HTMLButtonElement>('agents-stop');
  let running: AbortController | undefined;
  let previous: string | undefined;
  service.addEventListener('change', () => {
    registerDemoTools(service, byId('agents-notes'));
    previous = undefined;
  });

  byId('agents-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    running?.abort();
    running = new AbortController();
    stop.disabled = false;
    trace.replaceChildren();
    const tools = [...document.querySelectorAll<HTMLInputElement>('#agents-tools input:checked')].map(
      (box) => box.value,
    );
    const line = (text: string, kind = '') => trace.appendChild(el('li', { className: kind, textContent: text }));
    let answer: HTMLElement | undefined;
    say(status, 'Running…', 'busy');
    const signal = running.signal;
    /** One request of the run (the first, or an answer to its approval requests), its trace streamed. */
    const post = async (body: object): Promise<Run | undefined> => {
      const response = await fetch('/v1/agents/run', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${service.key}` },
        body: JSON.stringify({
          tools,
          max_steps: Number(byId<HTMLInputElement>('agents-steps').value),
          // Per step: a small model at random can otherwise write until its context is full.
          max_tokens: 256,
          stream: true,
          ...body,
        }),
        signal,
      });
      if (!response.ok) throw new Error((await response.json()).error.message);
      let run: Run | undefined;
      for await (const e of events(response)) {
        if (e.type === 'step.started') answer = line(`Step ${Number(e.step) + 1}: `, 'muted');
        else if (e.type === 'message.delta') answer!.textContent += e.delta ?? '';
        else if (e.type === 'tool_call') line(`→ ${e.call!.name}(${e.call!.arguments})`);
        else if (e.type === 'tool_result')
          line(`← ${String(e.name)}: ${String(e.output)} (${String(e.duration_ms)} ms)`);
        else if (e.type === 'run.completed') {
          run = e.run as Run;
          const waiting = run.approval_requests.length ? ' — waiting for your approval' : '';
          say(status, `${run.status} in ${run.steps.length} steps, ${run.usage.total_tokens} tokens${waiting}`, 'ok');
        } else if (e.type === 'run.failed') say(status, String((e.error as { message: string }).message), 'error');
      }
      return run;
    };
    try {
      let run = await post({ input: byId<HTMLTextAreaElement>('agents-input').value });
      while (run?.approval_requests.length) {
        const stopped = new Promise<never>((_, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
        );
        const answers = await Promise.race([
          Promise.all(run.approval_requests.map((request) => askApproval(line, request))),
          stopped,
        ]);
        run = await post({ previous_run_id: run.id, input: answers });
      }
    } catch (error) {
      say(
        status,
        running.signal.aborted ? 'Stopped.' : describeError(error),
        running.signal.aborted ? 'info' : 'error',
      );
    } finally {
      stop.disabled = true;
    }
  });
  stop.addEventListener('click', () => running?.abort());

  byId('responses-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const input = byId<HTMLInputElement>('responses-input');
    const out = byId('responses-log').appendChild(el('li', { textContent: `${input.value} → ` }));
    try {
      const stream = await service.client.responses.create({
        model: 'agent-v1',
        input: input.value,
        previous_response_id: previous,
        max_output_tokens: 128,
        stream: true,
      });
      for await (const e of stream) {
        if (e.type === 'response.output_text.delta') out.textContent += e.delta;
        if (e.type === 'response.completed') previous = e.response.id;
      }
      input.value = '';
    } catch (error) {
      out.textContent += describeError(error);
    }
  });
}
