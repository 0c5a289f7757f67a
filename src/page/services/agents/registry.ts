import type { AgentTool } from './loop';
/** JSON Schema of a tool's input (an object schema). */
export type InputSchema = Record<string, unknown>;

/** Hints about a tool, as the W3C WebMCP draft's `annotations`. */
export interface ToolAnnotations {
  /** true: the tool only reads, and its calls run without approval (unless `needsApproval` says otherwise). */
  readOnlyHint?: boolean;
  [hint: string]: unknown;
}

/** What the page registers: shaped like WebMCP's `registerTool` descriptor. */
export interface PageTool {
  /** 1–128 characters of `[A-Za-z0-9_.-]`, unique in this instance. */
  name: string;
  description?: string;
  /** JSON Schema of the arguments (default: an object with no required fields). */
  inputSchema?: InputSchema;
  /**
   * Runs the tool with validated arguments. The result (a string, or any JSON value) goes back to the
   * model as data; `signal` aborts when the run is aborted.
   */
  execute(args: Record<string, unknown>, context: { signal: AbortSignal }): unknown;
  annotations?: ToolAnnotations;
  /**
   * Whether a call must be approved before `execute` runs (a function decides per call from the
   * validated arguments). Default: every call of a tool not marked `annotations.readOnlyHint: true`.
   */
  needsApproval?: NeedsApproval;
}

export type NeedsApproval = boolean | ((args: Record<string, unknown>) => boolean | Promise<boolean>);

/** A page tool's approval policy: its own `needsApproval`, else approval unless it says it only reads. */
export const approvalPolicy = (tool: Pick<PageTool, 'needsApproval' | 'annotations'>): NeedsApproval =>
  tool.needsApproval ?? tool.annotations?.readOnlyHint !== true;

export interface ToolRegistryApi {
  /** Registers a tool for `/v1/agents/run`; returns a function that unregisters it. Throws on a bad or taken name. */
  register(tool: PageTool): () => void;
  /** The registered tools' names, descriptions, schemas and annotations. */
  list(): Omit<PageTool, 'execute' | 'needsApproval'>[];
}

export const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** The page's tools, per `createVaani` instance. */
export class ToolRegistry implements ToolRegistryApi {
  private readonly tools = new Map<string, PageTool>();

  register(tool: PageTool): () => void {
    if (typeof tool?.name !== 'string' || !TOOL_NAME.test(tool.name))
      throw new TypeError(`Tool name '${String(tool?.name)}' must be 1–128 characters of A–Z, a–z, 0–9, _, . or -.`);
    if (typeof tool.execute !== 'function') throw new TypeError(`Tool '${tool.name}' needs an execute function.`);
    if (tool.inputSchema !== undefined && (typeof tool.inputSchema !== 'object' || tool.inputSchema === null))
      throw new TypeError(`Tool '${tool.name}': inputSchema must be a JSON Schema object.`);
    if (tool.needsApproval !== undefined && !['boolean', 'function'].includes(typeof tool.needsApproval))
      throw new TypeError(`Tool '${tool.name}': needsApproval must be a boolean or a function of the arguments.`);
    if (this.tools.has(tool.name)) throw new Error(`A tool named '${tool.name}' is already registered.`);
    const entry = { ...tool };
    this.tools.set(tool.name, entry);
    return () => {
      if (this.tools.get(tool.name) === entry) this.tools.delete(tool.name);
    };
  }

  get(name: string): PageTool | undefined {
    return this.tools.get(name);
  }

  list(): Omit<PageTool, 'execute' | 'needsApproval'>[] {
    return [...this.tools.values()].map(({ execute: _execute, needsApproval: _needs, ...rest }) => rest);
  }
}

/** A registered tool as the agent loop offers it (`definition` given: a declared function tool's own). */
export const agentTool = (tool: PageTool, definition?: AgentTool['definition']): AgentTool => ({
  definition: definition ?? {
    type: 'function',
    function: {
      name: tool.name,
      ...(tool.description ? { description: tool.description } : {}),
      parameters: tool.inputSchema ?? { type: 'object', properties: {} },
    },
  },
  execute: (args, signal) => tool.execute(args, { signal }),
  needsApproval: approvalPolicy(tool),
  annotations: { ...tool.annotations },
});
