import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../../src/page/services/agents/registry';

describe('ai.tools', () => {
  it('registers WebMCP-shaped tools, rejects bad and taken names, and unregisters', () => {
    const tools = new ToolRegistry();
    const off = tools.register({
      name: 'page.search_notes',
      description: 'd',
      inputSchema: { type: 'object' },
      execute: () => 1,
    });
    expect(tools.list()).toEqual([{ name: 'page.search_notes', description: 'd', inputSchema: { type: 'object' } }]);
    expect(() => tools.register({ name: 'page.search_notes', execute: () => 1 })).toThrow(/already registered/);
    expect(() => tools.register({ name: 'has space', execute: () => 1 })).toThrow(TypeError);
    expect(() => tools.register({ name: 'x'.repeat(129), execute: () => 1 })).toThrow(TypeError);
    expect(() => tools.register({ name: 'ok', execute: 'no' as never })).toThrow(/execute/);
    off();
    expect(tools.list()).toEqual([]);
    expect(() => tools.register({ name: 'page.search_notes', execute: () => 2 })).not.toThrow();
  });
});
