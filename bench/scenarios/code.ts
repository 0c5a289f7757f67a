import { wasmThreads } from '../../src/common/backends/ort';
import { createVaani } from '../../src/index';
import { startBare } from '../support/chat-bare';
import type { BenchEnv, Scenario, ScenarioResult } from '../types';

/** bench/prepare/code.ts writes the models and this pointer to them. */
const POINTER = '/test/.fixtures/bench-code.json';
const ROUNDS = 3;
const STEPS = 10;
const LINE = '    total = total + values[index] * weights[index]  # running sum\n';
const SCHEMA = {
  type: 'object',
  properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
  required: ['city', 'unit'],
  additionalProperties: false,
};
const headers = { authorization: 'Bearer bench', 'content-type': 'application/json' };
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

type Ai = ReturnType<typeof createVaani>;

/** Time from the request to the first streamed chunk of a fill-in-the-middle completion. */
async function firstChunkMs(ai: Ai, prompt: string, suffix: string): Promise<number> {
  const start = performance.now();
  const response = await ai.fetch('/v1/code/completions', {
    method: 'POST',
    headers,
    body: JSON.stringify({ prompt, suffix, max_tokens: 8, temperature: 0, stream: true }),
  });
  const reader = response.body!.getReader();
  await reader.read();
  const ms = performance.now() - start;
  await reader.cancel();
  return ms;
}

async function promptTokens(ai: Ai, prompt: string, suffix: string): Promise<number> {
  const response = await ai.fetch('/v1/code/completions', {
    method: 'POST',
    headers,
    body: JSON.stringify({ prompt, suffix, max_tokens: 1, temperature: 0 }),
  });
  return ((await response.json()) as { usage: { prompt_tokens: number } }).usage.prompt_tokens;
}

/** The bare onnxruntime-web loop's prefill of the same number of tokens plus one step: the floor. */
async function barePrefillMs(base: string, threads: number, tokens: number): Promise<number> {
  const loop = await startBare({ base, graph: 'onnx/model.onnx', externalData: ['onnx/model.onnx_data'], threads });
  try {
    await loop.run({ promptTokens: 16, steps: 1 });
    const runs = [];
    for (let i = 0; i < ROUNDS; i++) runs.push((await loop.run({ promptTokens: tokens, steps: 1 })).prefillMs);
    return median(runs);
  } finally {
    loop.terminate();
  }
}

async function fimRows(env: BenchEnv, base: string): Promise<ScenarioResult[]> {
  const ai = createVaani({ backend: 'wasm', models: { 'code-v1-base': { baseURL: base, dtype: 'fp32' } } });
  const rows: ScenarioResult[] = [];
  try {
    const perLine = (await promptTokens(ai, 'def f(values, weights):\n' + LINE.repeat(40), '')) / 40;
    for (const target of [1024, 4096]) {
      const lines = Math.round((target - 16) / perLine);
      const prompt = 'def weighted(values, weights):\n    total = 0\n' + LINE.repeat(Math.ceil(lines / 2));
      const suffix = '\n' + LINE.repeat(Math.floor(lines / 2)) + '    return total\n';
      const tokens = await promptTokens(ai, prompt, suffix);
      const times = [];
      for (let i = 0; i < ROUNDS; i++) times.push(await firstChunkMs(ai, prompt, suffix));
      const floor = await barePrefillMs(base, wasmThreads(undefined), tokens);
      env.log(`FIM ${tokens} tokens: first chunk ${median(times).toFixed(0)} ms (bare prefill ${floor.toFixed(0)} ms)`);
      rows.push({
        id: `code.fim_ttft_${target / 1024}k`,
        metric: `fill-in-the-middle time to first token, ${target / 1024}K tokens of context (Qwen2.5-Coder-0.5B shape, 2 layers, fp32, WASM)`,
        unit: 'ms',
        value: median(times),
        baseline: { name: 'bare onnxruntime-web prefill of as many tokens (same files and threads)', value: floor },
        higherIsBetter: false,
        notes: { promptTokens: tokens, rounds: times },
      });
    }
  } finally {
    ai.dispose();
  }
  return rows;
}

type Run = { steps: { model_ms: number }[] };

/**
 * The agent loop's own cost per step: /agents/run wall time minus the model's time in each step,
 * over STEPS steps of a scripted model that calls a trivial page tool every step; and the same
 * steps as a client loop over /chat/completions (what an app would write without the route).
 */
async function agentRows(env: BenchEnv, base: string): Promise<ScenarioResult[]> {
  const source = { baseURL: base, dtype: 'fp32' };
  const ai = createVaani({ backend: 'wasm', models: { 'agent-v1': source, 'chat-v2': source } });
  ai.tools.register({ name: 'get_weather', inputSchema: SCHEMA, execute: () => ({ temperature: 27 }) });
  const input = 'पुणे में मौसम?';
  const agentRun = async () => {
    const start = performance.now();
    const response = await ai.fetch('/v1/agents/run', {
      method: 'POST',
      headers,
      body: JSON.stringify({ input, tools: ['get_weather'], max_steps: STEPS, temperature: 0 }),
    });
    const run = (await response.json()) as Run;
    const wall = performance.now() - start;
    const model = run.steps.reduce((sum, step) => sum + step.model_ms, 0);
    return { perStep: wall / run.steps.length, overhead: (wall - model) / run.steps.length };
  };
  const tools = [{ type: 'function', function: { name: 'get_weather', parameters: SCHEMA } }];
  const clientLoop = async () => {
    const start = performance.now();
    const messages: unknown[] = [{ role: 'user', content: input }];
    for (let step = 0; step < STEPS; step++) {
      const response = await ai.fetch('/v1/chat/completions', {
        method: 'POST',
        headers,
        body: JSON.stringify({ model: 'chat-v2', messages, tools, temperature: 0 }),
      });
      const message = ((await response.json()) as { choices: { message: { tool_calls?: { id: string }[] } }[] })
        .choices[0]!.message;
      messages.push(message);
      for (const call of message.tool_calls ?? [])
        messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify({ temperature: 27 }) });
    }
    return (performance.now() - start) / STEPS;
  };
  try {
    await agentRun();
    await clientLoop();
    const runs = [];
    const loops = [];
    for (let i = 0; i < ROUNDS; i++) {
      runs.push(await agentRun());
      loops.push(await clientLoop());
    }
    const overhead = median(runs.map((r) => r.overhead));
    env.log(`agent loop: ${overhead.toFixed(2)} ms per step beyond the model`);
    return [
      {
        id: 'agents.loop_overhead_per_step',
        metric: `agent loop time per step beyond the model's (${STEPS} steps, one page tool call each; goal < 5 ms)`,
        unit: 'ms',
        value: overhead,
        baseline: null,
        higherIsBetter: false,
        notes: { rounds: runs },
      },
      {
        id: 'agents.step_vs_client_loop',
        metric: `wall time per agent step: /agents/run vs a client loop over /chat/completions (${STEPS} steps, tiny scripted model)`,
        unit: 'ms',
        value: median(runs.map((r) => r.perStep)),
        baseline: { name: 'client loop over /v1/chat/completions', value: median(loops) },
        higherIsBetter: false,
      },
    ];
  } finally {
    ai.dispose();
  }
}

/** Fill-in-the-middle time to first token at 1K and 4K tokens, and the agent loop's overhead per step. */
const code: Scenario = async (env) => {
  const { coder, caller } = (await (await fetch(POINTER)).json()) as { coder: string; caller: string };
  return [...(await agentRows(env, caller)), ...(await fimRows(env, coder))];
};

export default code;
