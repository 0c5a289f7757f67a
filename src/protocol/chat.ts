import type { ModelJob } from './jobs';
/** The chat types shared by the route and the engines (OpenAI's shapes). */
export type Role = 'system' | 'user' | 'assistant' | 'tool';

/** One generated token's log-probability in OpenAI's shape (`choices[].logprobs.content[]`). */
export interface TokenLogprob {
  token: string;
  logprob: number;
  bytes: number[];
  top_logprobs: { token: string; logprob: number; bytes: number[] }[];
}

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
  /**
   * Raw text to continue (POST /completions): no chat template; `messages` is empty and the
   * tokenizer adds its own special tokens (a BOS where the model has one).
   */
  prompt?: string;
  /**
   * Fill-in-the-middle: the code after the cursor; `prompt` is the code before it. Needs a tokenizer
   * with FIM tokens (else a 400).
   */
  suffix?: string;
  /** Stop a raw completion at the end of the cursor's line or block (code completion). */
  boundary?: 'line' | 'block';
  /** Return each token's log-probability, with the `top_logprobs` likeliest alternatives (0–20). */
  logprobs?: boolean;
  top_logprobs?: number;
  /** Token id → bias added to its logit (−100…100). */
  logit_bias?: Record<string, number>;
  /**
   * Render the chat template in its thinking mode (`enable_thinking`, Qwen3); the model's
   * `<think>…</think>` comes back as `reasoning_content`. Absent or false: thinking off.
   */
  thinking?: boolean;
  /** More variables for the chat template (`chat_template_kwargs`, as vLLM); they cannot replace the messages or tools. */
  template_kwargs?: Record<string, unknown>;
}

export interface ToolCallDelta {
  index: number;
  id?: string;
  type?: 'function';
  function: { name?: string; arguments?: string };
}

export interface ChatDelta {
  content?: string;
  /** The model's thinking (its `<think>…</think>` block), never part of `content`. */
  reasoning_content?: string;
  /** Log-probabilities of the tokens behind this delta's content (when asked). */
  logprobs?: TokenLogprob[];
  tool_calls?: ToolCallDelta[];
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** Present when the model thought: how many of the completion tokens were its thinking. */
  completion_tokens_details?: { reasoning_tokens: number };
}

export interface ChatOutcome {
  finish_reason: 'stop' | 'length' | 'tool_calls';
  usage: Usage;
}

export interface StartInfo {
  backend: string;
  /** Tokens the loaded model attends to (its config's context length). */
  contextLength?: number;
}

/** What a generation reports as it runs (the worker's generation loop calls the page's through comlink). */
export interface ChatEvents {
  /** Called once, before the first delta, with the backend the engine runs on and the model's real context. */
  onStart(info: StartInfo): void;
  onDelta(delta: ChatDelta): void;
}

export interface ChatHooks extends ChatEvents {
  signal: AbortSignal;
}

export interface ChatEngine {
  complete(params: ChatParams, hooks: ChatHooks): Promise<ChatOutcome>;
  /**
   * Runs the start of a prompt into the engine's cache ahead of the request that will send it
   * whole: `params.messages` as the prompt begins, up to the last one's text. Resolves to the
   * tokens now held (0 where nothing could be). Engines without a prompt cache leave it out.
   */
  prefill?(params: ChatParams, signal: AbortSignal): Promise<number>;
}

export interface ChatJob extends ModelJob {
  params: ChatParams;
}

/** The chat worker's API (src/worker/chat/chat.worker.ts satisfies it). */
export interface ChatWorker {
  complete(job: ChatJob, events: ChatEvents): Promise<ChatOutcome>;
  prefill(job: ChatJob): Promise<number>;
}
