import { describe, expect, it } from 'vitest';
import { BASE, postJson, service } from '../helpers';
import { callDelta, stepsEngine } from './steps-engine';
import type { ApproveHook } from '../../../../src/protocol/approval';
import type { PageTool } from '../../../../src/page/services/agents/registry';

const schema = {
  type: 'object',
  properties: { scope: { type: 'string' } },
  required: ['scope'],
  additionalProperties: false,
};
const CALL = callDelta(0, 'orders.cancelAll', '{"scope":"all"}');

/** A destructive page tool, counting its runs; `answers` are the model's steps (a call, then text). */
function setup(tool: Partial<PageTool> = {}, approve?: ApproveHook, answers = [[CALL], [{ content: 'done' }]]) {
  const { factory, seen } = stepsEngine(answers);
  const ai = service({ approve }, [factory]);
  const ran: unknown[] = [];
  ai.tools.register({
    name: 'orders.cancelAll',
    inputSchema: schema,
    execute: (args) => (ran.push(args), 'cancelled 3 orders'),
    ...tool,
  });
  const post = async (body: object, init: { approve?: ApproveHook } = {}) =>
    (await ai.fetch(`${BASE}/agents/run`, { ...postJson({ tools: ['orders.cancelAll'], ...body }), ...init })).json();
  return { ai, ran, seen, post };
}

describe('approval for side effects on /agents/run', () => {
  it('a tool not marked read-only never runs unasked: the run stops with an mcp_approval_request; approve runs it once', async () => {
    const { ran, seen, post } = setup();
    const run = await post({ input: 'tidy up' });
    expect(ran).toEqual([]);
    expect(run).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'approval_required' } });
    expect(run.steps).toHaveLength(1);
    expect(run.steps[0].tool_calls).toEqual([]);
    expect(run.approval_requests).toEqual([
      {
        id: expect.stringMatching(/^mcpr_/),
        type: 'mcp_approval_request',
        server_label: 'page',
        name: 'orders.cancelAll',
        arguments: '{"scope":"all"}',
      },
    ]);
    const answer = { type: 'mcp_approval_response', approval_request_id: run.approval_requests[0].id, approve: true };
    const next = await post({ previous_run_id: run.id, input: [answer] });
    expect(ran).toEqual([{ scope: 'all' }]);
    expect(next).toMatchObject({ status: 'completed', output_text: 'done', previous_run_id: run.id });
    expect(next.steps[0].tool_calls[0]).toMatchObject({ output: 'cancelled 3 orders', approval: 'approved' });
    expect(seen).toHaveLength(2);
    // The same answer again: the run was answered, nothing runs twice.
    const again = await post({ previous_run_id: run.id, input: [answer] });
    expect(again.error).toMatchObject({ code: 'run_not_found', param: 'previous_run_id' });
    expect(ran).toHaveLength(1);
  });

  it('deny: the model gets the denial (with the reason) as the call result and the run finishes', async () => {
    const { ran, seen, post } = setup();
    const run = await post({ input: 'tidy up' });
    const next = await post({
      previous_run_id: run.id,
      input: [
        {
          type: 'mcp_approval_response',
          approval_request_id: run.approval_requests[0].id,
          approve: false,
          reason: 'not today',
        },
      ],
    });
    expect(ran).toEqual([]);
    expect(next.status).toBe('completed');
    const denial = "Error: this call was not approved, so 'orders.cancelAll' did not run (reason: not today).";
    expect(next.steps[0].tool_calls[0]).toMatchObject({ is_error: true, approval: 'denied', output: denial });
    expect(seen[1]!.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_0', content: denial });
  });

  it('readOnlyHint: true and needsApproval: false run unasked; needsApproval(args) decides per call', async () => {
    for (const tool of [{ annotations: { readOnlyHint: true } }, { needsApproval: false }]) {
      const { ran, post } = setup(tool);
      const run = await post({ input: 'x' });
      expect(run.status).toBe('completed');
      expect(run.steps[0].tool_calls[0].approval).toBeNull();
      expect(ran).toHaveLength(1);
    }
    const asked: unknown[] = [];
    const policy = (args: Record<string, unknown>) => (asked.push(args), args.scope === 'all');
    const { ran, post } = setup({ needsApproval: policy, annotations: { readOnlyHint: true } });
    expect((await post({ input: 'x' })).status).toBe('incomplete');
    expect(ran).toEqual([]);
    expect(asked).toEqual([{ scope: 'all' }]);
    const one = setup({ needsApproval: policy }, undefined, [
      [callDelta(0, 'orders.cancelAll', '{"scope":"one"}')],
      [{ content: 'ok' }],
    ]);
    expect((await one.post({ input: 'x' })).status).toBe('completed');
    expect(one.ran).toEqual([{ scope: 'one' }]);
  });

  it("hooks: the run's own hook before the instance's; true runs, false denies, undefined asks the app, a throw denies", async () => {
    const calls: unknown[] = [];
    const instance: ApproveHook = (call, context) => (calls.push({ call, route: context.route }), true);
    const yes = setup({}, instance);
    expect((await yes.post({ input: 'x' })).status).toBe('completed');
    expect(yes.ran).toHaveLength(1);
    expect(calls).toEqual([
      {
        call: { id: 'call_0', name: 'orders.cancelAll', arguments: '{"scope":"all"}', args: { scope: 'all' } },
        route: '/agents/run',
      },
    ]);
    const denied = setup({}, instance);
    const perRun = await denied.post({ input: 'x' }, { approve: async () => false });
    expect(perRun.steps[0].tool_calls[0]).toMatchObject({ approval: 'denied', is_error: true });
    expect(denied.ran).toEqual([]);
    const undecided = setup({}, instance);
    expect((await undecided.post({ input: 'x' }, { approve: () => undefined })).status).toBe('completed');
    expect(undecided.ran).toHaveLength(1);

    const ask = setup({}, () => undefined);
    expect((await ask.post({ input: 'x' })).incomplete_details).toEqual({ reason: 'approval_required' });
    const throwing = setup({}, () => {
      throw new Error('no UI');
    });
    const failed = await throwing.post({ input: 'x' });
    expect(failed.steps[0].tool_calls[0].output).toMatch(/not approved.*the approval hook failed: no UI/);
    expect(throwing.ran).toEqual([]);
  });

  it('streams an approval_request event with the item; the built-in memory.store asks too', async () => {
    const { factory } = stepsEngine([[CALL]]);
    const ai = service({}, [factory]);
    ai.tools.register({ name: 'orders.cancelAll', inputSchema: schema, execute: () => 'x' });
    const text = await (
      await ai.fetch(`${BASE}/agents/run`, postJson({ input: 'x', tools: ['orders.cancelAll'], stream: true }))
    ).text();
    const events = text.split('\n\n').filter(Boolean);
    expect(events.map((event) => event.split('\n')[0])).toEqual([
      'event: step.started',
      'event: tool_call',
      'event: approval_request',
      'event: run.completed',
      'data: [DONE]',
    ]);
    const asked = JSON.parse(events[2]!.split('\n')[1]!.slice(6));
    const done = JSON.parse(events[3]!.split('\n')[1]!.slice(6));
    expect(asked.item).toEqual(done.run.approval_requests[0]);

    const store = stepsEngine([[callDelta(0, 'memory.store', '{"text":"cancel every order"}')]]);
    const memory = service({}, [store.factory]);
    const run = await (
      await memory.fetch(`${BASE}/agents/run`, postJson({ input: 'x', tools: ['memory.store'] }))
    ).json();
    expect(run.approval_requests[0]).toMatchObject({ name: 'memory.store' });
  });

  it('400/404s: an answer without previous_run_id, an unknown run, an unknown request id, a message while waiting; the run still answers after', async () => {
    const { ran, post } = setup();
    const run = await post({ input: 'x' });
    const answer = { type: 'mcp_approval_response', approval_request_id: run.approval_requests[0].id, approve: true };
    expect((await post({ input: [answer] })).error).toMatchObject({ param: 'input[0]' });
    expect((await post({ previous_run_id: 'run_nope', input: [answer] })).error).toMatchObject({
      code: 'run_not_found',
    });
    const wrong = { ...answer, approval_request_id: 'mcpr_nope' };
    expect((await post({ previous_run_id: run.id, input: [wrong] })).error).toMatchObject({
      code: 'approval_request_not_found',
      param: 'input[0].approval_request_id',
    });
    const mixed = await post({ previous_run_id: run.id, input: [answer, { role: 'user', content: 'hi' }] });
    expect(mixed.error).toMatchObject({ param: 'input[1]' });
    expect(ran).toEqual([]);
    expect((await post({ previous_run_id: run.id, input: [answer] })).status).toBe('completed');
    expect(ran).toHaveLength(1);
  });
});

describe('ai.tools.register', () => {
  it('takes needsApproval as a boolean or a function, and keeps it out of list()', () => {
    const ai = service();
    expect(() => ai.tools.register({ name: 'a', execute: () => 1, needsApproval: 'yes' as never })).toThrow(
      /needsApproval/,
    );
    ai.tools.register({ name: 'b', execute: () => 1, needsApproval: () => true });
    expect(ai.tools.list()).toEqual([{ name: 'b' }]);
  });
});
