/** The chat types shared by the route and the engines (OpenAI's shapes). */
export type Role = 'system' | 'user' | 'assistant' | 'tool';

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ChatMessage {
  role: Role;
  content: string | null;
  name?: string;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
}

export interface ToolDefinition {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean | null };
}

/** OpenAI's `response_format`: free text, any JSON object, or JSON matching a schema. */
export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; json_schema: { name: string; schema?: Record<string, unknown>; strict?: boolean | null } };

export type ToolChoice = 'none' | 'auto' | 'required' | { type: 'function'; function: { name: string } };

export interface ChatParams {
  model: string;
  messages: ChatMessage[];
  temperature: number;
  top_p: number;
  top_k?: number;
  max_tokens?: number;
  stop: string[];
  seed?: number;
  presence_penalty: number;
  frequency_penalty: number;
  tools?: ToolDefinition[];
  tool_choice?: ToolChoice;
  /** Default true: a required or `auto` answer may hold several calls. */
  parallel_tool_calls?: boolean;
  response_format?: ResponseFormat;
}

export interface ToolCallDelta {
  index: number;
  id?: string;
  type?: 'function';
  function: { name?: string; arguments?: string };
}

export interface ChatDelta {
  content?: string;
  tool_calls?: ToolCallDelta[];
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface ChatOutcome {
  finish_reason: 'stop' | 'length' | 'tool_calls';
  usage: Usage;
}

export interface ChatHooks {
  signal: AbortSignal;
  /** Called once, before the first delta, with the backend the engine runs on. */
  onStart(info: { backend: string }): void;
  onDelta(delta: ChatDelta): void;
}

export interface ChatEngine {
  complete(params: ChatParams, hooks: ChatHooks): Promise<ChatOutcome>;
}
