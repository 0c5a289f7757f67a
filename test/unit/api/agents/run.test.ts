import { describe, expect, it } from 'vitest';
import { BASE, postJson, service } from '../helpers';
import { callDelta, stepsEngine } from './steps-engine';

const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

describe('POST /agents/run', () => {
  it('runs a registered page tool and answers with the trace', async () => {
    const { factory, seen } = stepsEngine([[callDelta(0, 'get_weather', '{"city":"Pune"}')], [{ content: '27 °C' }]]);
    const ai = service({}, [factory]);
    ai.tools.register({
      name: 'get_weather',
      description: 'Weather now',
      inputSchema: schema,
      execute: ({ city }) => `${String(city)}: 27`,
      annotations: { readOnlyHint: true },
    });
    const res = await ai.fetch(
      `${BASE}/agents/run`,
      postJson({ input: 'weather?', tools: ['get_weather'], instructions: 'Be brief.' }),
    );
    expect(res.status).toBe(200);
    const run = await res.json();
    expect(run).toMatchObject({ object: 'agent.run', model: 'agent-v1', status: 'completed', output_text: '27 °C' });
    expect(run.id).toMatch(/^run_/);
    expect(run.steps[0].tool_calls[0]).toMatchObject({ name: 'get_weather', output: 'Pune: 27', is_error: false });
    expect(seen[0]!.messages[0]).toEqual({ role: 'system', content: 'Be brief.' });
    expect(seen[0]!.tools).toEqual([
      { type: 'function', function: { name: 'get_weather', description: 'Weather now', parameters: schema } },
    ]);
  });

  it('streams step.started, tool_call, tool_result, message.delta and run.completed as named events', async () => {
    const { factory } = stepsEngine([[callDelta(0, 'get_weather', '{"city":"Pune"}')], [{ content: 'done' }]]);
    const ai = service({}, [factory]);
    ai.tools.register({ name: 'get_weather', inputSchema: schema, execute: () => 'sunny', needsApproval: false });
    const res = await ai.fetch(`${BASE}/agents/run`, postJson({ input: 'x', tools: ['get_weather'], stream: true }));
    const events = (await res.text()).split('\n\n').filter(Boolean);
    expect(events.map((event) => event.split('\n')[0])).toEqual([
      'event: step.started',
      'event: tool_call',
      'event: tool_result',
      'event: step.started',
      'event: message.delta',
      'event: run.completed',
      'data: [DONE]',
    ]);
    expect(JSON.parse(events[5]!.split('\n')[1]!.slice(6)).run.output_text).toBe('done');
  });

  it('a declared function tool nothing in the page runs is an error result for the model', async () => {
    const { factory } = stepsEngine([[callDelta(0, 'lookup', '{}')], [{ content: 'ok' }]]);
    const ai = service({}, [factory]);
    const tools = [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }];
    const run = await (await ai.fetch(`${BASE}/agents/run`, postJson({ input: 'x', tools }))).json();
    expect(run.steps[0].tool_calls[0]).toMatchObject({
      is_error: true,
      output: expect.stringMatching(/no tool named 'lookup'/),
    });
  });

  it('400s: an unregistered tool name, a tool listed twice, max_steps over 50, a tool_choice not in tools; the next request works', async () => {
    const { factory } = stepsEngine([[{ content: 'fine' }]]);
    const ai = service({}, [factory]);
    ai.tools.register({ name: 'a', execute: () => 1 });
    const error = async (body: object) => {
      const res = await ai.fetch(`${BASE}/agents/run`, postJson({ input: 'x', ...body }));
      return { status: res.status, ...(await res.json()).error };
    };
    expect(await error({ tools: ['b'] })).toMatchObject({ status: 400, param: 'tools[0]', code: 'tool_not_found' });
    expect(await error({ tools: ['a', 'a'] })).toMatchObject({ status: 400, param: 'tools[1]' });
    expect(await error({ max_steps: 51 })).toMatchObject({ status: 400, param: 'max_steps' });
    expect(await error({ input: '' })).toMatchObject({ status: 400, param: 'input' });
    expect(await error({ tools: ['a'], tool_choice: { type: 'function', function: { name: 'z' } } })).toMatchObject({
      status: 400,
      param: 'tool_choice',
    });
    const res = await ai.fetch(`${BASE}/agents/run`, postJson({ input: 'x', tools: ['a'] }));
    expect((await res.json()).output_text).toBe('fine');
  });
});

describe('POST /agents/run: failures', () => {
  it('a failure after the stream started is a run.failed event with the error body', async () => {
    const { factory, engine } = stepsEngine([[callDelta(0, 'get_weather', '{"city":"Pune"}')], [{ content: 'x' }]]);
    const complete = engine.complete.bind(engine);
    let calls = 0;
    engine.complete = (params, hooks) => {
      if (calls++ === 1) return Promise.reject(new Error('the worker stopped'));
      return complete(params, hooks);
    };
    const ai = service({}, [factory]);
    ai.tools.register({ name: 'get_weather', inputSchema: schema, execute: () => 'sunny', needsApproval: false });
    const res = await ai.fetch(`${BASE}/agents/run`, postJson({ input: 'x', tools: ['get_weather'], stream: true }));
    const events = (await res.text()).split('\n\n').filter(Boolean);
    const failed = events.find((event) => event.startsWith('event: run.failed'))!;
    expect(JSON.parse(failed.split('\n')[1]!.slice(6))).toMatchObject({
      type: 'run.failed',
      error: { type: 'server_error', code: 'internal_error', message: expect.stringContaining('the worker stopped') },
    });
  });
});
