import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { ApproveHook } from '../../../../src/protocol/approval';
import { callDelta, stepsEngine } from '../agents/steps-engine';
import { BASE, service } from '../helpers';

const schema = { type: 'object', properties: { scope: { type: 'string' } }, required: ['scope'] };
const MCP = { type: 'mcp' as const, server_label: 'shop' };

function setup(
  approve?: ApproveHook,
  answers = [[callDelta(0, 'orders.cancelAll', '{"scope":"all"}')], [{ content: 'ok' }]],
) {
  const { factory, seen } = stepsEngine(answers);
  const ai = service({ approve }, [factory]);
  const ran: unknown[] = [];
  ai.tools.register({
    name: 'orders.cancelAll',
    inputSchema: schema,
    execute: (args) => (ran.push(args), 'cancelled'),
  });
  ai.tools.register({
    name: 'orders.list',
    inputSchema: schema,
    execute: () => '[]',
    annotations: { readOnlyHint: true },
  });
  return { ai, ran, seen, openai: new OpenAI({ baseURL: BASE, apiKey: 'k', fetch: ai.fetch }) };
}

describe('POST /responses with the page tools (mcp)', () => {
  it('a destructive call waits: mcp_approval_request, incomplete; the approval runs it once as an mcp_call', async () => {
    const { ran, seen, openai } = setup();
    const first = await openai.responses.create({ model: 'agent-v1', input: 'tidy up', tools: [MCP] });
    expect(ran).toEqual([]);
    expect(first.status).toBe('incomplete');
    expect(first.incomplete_details).toEqual({ reason: 'approval_required' });
    const request = first.output.find((item) => item.type === 'mcp_approval_request')!;
    expect(request).toEqual({
      id: expect.stringMatching(/^mcpr_/),
      type: 'mcp_approval_request',
      server_label: 'shop',
      name: 'orders.cancelAll',
      arguments: '{"scope":"all"}',
    });
    expect(seen[0]!.tools!.map((tool) => tool.function.name)).toEqual(['orders.cancelAll', 'orders.list']);
    const next = await openai.responses.create({
      model: 'agent-v1',
      previous_response_id: first.id,
      input: [{ type: 'mcp_approval_response', approval_request_id: request.id, approve: true }],
    });
    expect(ran).toEqual([{ scope: 'all' }]);
    expect(next.status).toBe('completed');
    expect(next.output_text).toBe('ok');
    expect(next.output[0]).toMatchObject({
      type: 'mcp_call',
      status: 'completed',
      name: 'orders.cancelAll',
      output: 'cancelled',
      error: null,
      approval_request_id: request.id,
    });
    const again = openai.responses.create({
      model: 'agent-v1',
      previous_response_id: first.id,
      input: [{ type: 'mcp_approval_response', approval_request_id: request.id, approve: true }],
    });
    await expect(again).rejects.toMatchObject({ status: 400, code: 'approval_request_not_found' });
    expect(ran).toHaveLength(1);
    // The conversation goes on from the answer, with the call and its result in it.
    await openai.responses.create({ model: 'agent-v1', previous_response_id: next.id, input: 'thanks', tools: [MCP] });
    expect(seen.at(-1)!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
  });

  it('deny: the model reads the denial as the result (a failed mcp_call) and the response completes', async () => {
    const { ran, seen, openai } = setup();
    const first = await openai.responses.create({ model: 'agent-v1', input: 'tidy up', tools: [MCP] });
    const request = first.output.find((item) => item.type === 'mcp_approval_request')!;
    const next = await openai.responses.create({
      model: 'agent-v1',
      previous_response_id: first.id,
      input: [{ type: 'mcp_approval_response', approval_request_id: request.id, approve: false }],
    });
    expect(ran).toEqual([]);
    expect(next.status).toBe('completed');
    expect(next.output[0]).toMatchObject({ type: 'mcp_call', status: 'failed', output: null });
    expect(seen[1]!.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'call_0',
      content: "Error: this call was not approved, so 'orders.cancelAll' did not run.",
    });
  });

  it('the per-request hook (fetchOptions.approve) and the instance hook decide without asking; streaming events', async () => {
    const { ran, openai } = setup(() => true);
    const approved = await openai.responses.create({ model: 'agent-v1', input: 'x', tools: [MCP] });
    expect(approved.status).toBe('completed');
    expect(ran).toHaveLength(1);
    const denied = setup(() => true);
    const perRun = await denied.openai.responses.create(
      { model: 'agent-v1', input: 'x', tools: [MCP] },
      { fetchOptions: { approve: () => false } as object },
    );
    expect(perRun.output[0]).toMatchObject({ type: 'mcp_call', status: 'failed' });
    expect(denied.ran).toEqual([]);

    const streamed = setup();
    const stream = await streamed.openai.responses.create({
      model: 'agent-v1',
      input: 'x',
      tools: [MCP],
      stream: true,
    });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.output_item.done',
      'response.incomplete',
    ]);
  });

  it("require_approval 'always' asks for a read-only tool; allowed_tools limits the tools; 400s", async () => {
    const { openai, ran, seen } = setup(undefined, [
      [callDelta(0, 'orders.list', '{"scope":"all"}')],
      [{ content: 'ok' }],
    ]);
    const tool = { ...MCP, allowed_tools: ['orders.list'], require_approval: 'always' as const };
    const first = await openai.responses.create({ model: 'agent-v1', input: 'x', tools: [tool] });
    expect(first.output.map((item) => item.type)).toEqual(['mcp_approval_request']);
    expect(seen[0]!.tools!.map((t) => t.function.name)).toEqual(['orders.list']);
    expect(ran).toEqual([]);
    const bad = (body: object) => openai.responses.create({ model: 'agent-v1', input: 'x', ...body } as never);
    await expect(bad({ tools: [{ ...MCP, server_url: 'https://x.test/mcp' }] })).rejects.toMatchObject({
      status: 400,
      param: 'tools[0].server_url',
    });
    await expect(bad({ tools: [{ ...MCP, allowed_tools: ['nope'] }] })).rejects.toMatchObject({
      code: 'tool_not_found',
      param: 'tools[0].allowed_tools[0]',
    });
    await expect(
      bad({ tools: [MCP, { type: 'function', name: 'f', parameters: { type: 'object' } }] }),
    ).rejects.toMatchObject({ param: 'tools[1]' });
    await expect(
      bad({ input: [{ type: 'mcp_approval_response', approval_request_id: 'mcpr_x', approve: true }] }),
    ).rejects.toMatchObject({ param: 'input[0]' });
    await expect(bad({ previous_response_id: first.id, input: 'hello' })).rejects.toMatchObject({
      status: 400,
      param: 'input',
    });
  });
});
