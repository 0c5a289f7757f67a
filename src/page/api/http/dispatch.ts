import type { EngineKind, EngineKinds } from '../../../protocol/engines';
import type { EngineRegistry } from '../../engines/_registry';
import type { Remote } from './remote';
import type { EngineChoice, Routing } from '../../../protocol/options';
import type { ToolRegistry } from '../../services/agents/registry';
import type { PausedRun } from '../../services/agents/approval';
import type { ApproveHook } from '../../../protocol/approval';
import { EngineError, messageOf } from '../../../protocol/errors';
import type { StoredResponse } from '../responses/_history';
import type { ResponseHistory } from '../../services/responses/history';
import type { ModelPlan } from '../../services/plan';
import type { PlanFor } from '../../../protocol/fit';
import { ApiError } from './errors';
import type { ChatDelta, ChatEngine } from '../../../protocol/chat';
import { remoteChat } from './remote-chat';

/** What every route needs besides its request. */
export interface Services {
  registry: EngineRegistry;
  remote: Remote | undefined;
  routing(modelId: string): Routing;
  /** The engines the browser itself offers (routing's 'builtin'). */
  builtin: Partial<EngineKinds>;
  /** Responses kept for `previous_response_id` (this instance's memory). */
  responses: ResponseHistory<StoredResponse>;
  /** Tools the page registered (`ai.tools`), for /agents/run and /responses. */
  tools: ToolRegistry;
  /** Agent runs stopped for approvals, for `previous_run_id` (this instance's memory). */
  runs: ResponseHistory<PausedRun>;
  /** The instance's approval hook (`createVaani({ approve })`). */
  approve?: ApproveHook;
  /** A run's own approval hook, by its request (`ai.fetch(url, { approve })`). */
  runApprovers: WeakMap<Request, ApproveHook>;
  /** Calls one of this service's own routes (`path` under /v1), as the built-in agent tools do. */
  self(path: string, init: RequestInit): Promise<Response>;
  /**
   * `ai.images`' in-page handover: a streamed images request carrying `x-vaani-deliver: <id>` that
   * runs locally hands its encoded images to the receiver under that id instead of base64 in its
   * completed events (see api/images/stream.ts).
   */
  deliveries?: Map<string, (images: Uint8Array[]) => void>;
  /** `createVaani({ licences })`: which voices Vaani may pick unnamed (GET /voices says it). */
  licences?: 'commercial' | 'any';
  /** The plan for a catalogue id (`x_vaani` on GET /models/{model}, `?language=` for speech recognition): reads no model file. */
  plan?(modelId: string, options?: PlanFor): Promise<ModelPlan>;
  /** Settles every tiered product's tier (src/page/services/tiers.ts), so the models list shows the engines they chose. */
  tiers?(): Promise<void>;
}

/**
 * One method of a route: `path` is the request's own path under the service's base (what a remote
 * is sent), `params` its decoded `{param}` segments.
 */
export type Handler = (
  ctx: Services,
  request: Request,
  path: string,
  params: Record<string, string>,
) => Promise<Response>;

/** A route module: one handler per method it accepts (every other method gets the one 405). */
export interface RouteModule {
  GET?: Handler;
  POST?: Handler;
  DELETE?: Handler;
}

/** A validated request, ready to run locally or to forward as it came. */
export interface Dispatch<K extends EngineKind> {
  request: Request;
  /** The path under /v1, e.g. '/chat/completions'. */
  path: string;
  raw: Uint8Array<ArrayBuffer>;
  streaming: boolean;
  model: string;
  /** The local engine kind and how to run on it; absent for products with no in-browser engine. */
  kind?: K;
  local?(engine: EngineKinds[K]): Promise<Response>;
}

/** The engines a routing tries, in order. */
export function preference(routing: Routing): EngineChoice[] {
  if (typeof routing === 'object') return routing.prefer;
  return {
    'local-first': ['local', 'remote'],
    'local-only': ['local'],
    'remote-first': ['remote', 'local'],
    'remote-only': ['remote'],
  }[routing] as EngineChoice[];
}

const noEngine = (model: string, order: EngineChoice[], passed: string[]) =>
  new ApiError(
    503,
    order.length === 1 && order[0] === 'remote'
      ? `Model '${model}' is routed 'remote-only' but no remote is configured: pass createVaani({ remote: { baseURL } }).`
      : order.includes('builtin')
        ? `No engine could answer model '${model}' (${passed.join('; ')}).`
        : `Model '${model}' has no local engine in this build and no remote is configured: pass createVaani({ remote: { baseURL, apiKey } }) to forward it.`,
    'model_unavailable',
    'model',
  );

/**
 * Sets headers the answer lacks: in place where they may change (a route's own Response: a copy
 * would turn its bytes into a stream read back piece by piece), on a copy for a fetched Response's
 * immutable headers.
 */
export function label(response: Response, headers: Record<string, string>): Response {
  const missing = Object.entries(headers).filter(([name]) => !response.headers.has(name));
  if (!missing.length) return response;
  try {
    for (const [name, value] of missing) response.headers.set(name, value);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    for (const [name, value] of missing) copy.headers.set(name, value);
    return copy;
  }
}

/** A header value from any text (headers carry Latin-1 only). */
const headerText = (text: string) => text.replace(/[^\x20-\x7e]/g, '?').slice(0, 1000);

/** Why an engine of each choice cannot run a request. */
const MISSING: Record<EngineChoice, string> = {
  remote: 'no remote is configured',
  builtin: 'the browser offers no built-in model for it',
  local: 'no local engine in this build',
};

/** How one engine would run the request, or why it cannot. */
function candidate<K extends EngineKind>(
  ctx: Services,
  job: Dispatch<K>,
  choice: EngineChoice,
): (() => Promise<Response>) | string {
  if (choice === 'remote') {
    const remote = ctx.remote;
    if (!remote) return MISSING.remote;
    return () => remote.forward(job.path, job.request, job.raw, job.streaming);
  }
  if (!job.kind || !job.local) return 'no engine in the page answers this route';
  const local = job.local;
  if (choice === 'builtin') {
    const engine = ctx.builtin[job.kind];
    if (!engine) return MISSING.builtin;
    return () => local(engine as EngineKinds[K]);
  }
  const engine = ctx.registry.get(job.kind, job.model);
  if (!engine) return MISSING.local;
  const backends = ctx.registry.info(job.model)?.backends ?? [];
  return async () => {
    const response = await local(engine);
    return backends.length === 1 ? label(response, { 'x-vaani-backend': backends[0]! }) : response;
  };
}

/**
 * Runs a request on the engines its routing names, in order: the next is tried when one is missing
 * or fails before answering (a remote only when it cannot be reached). The answer says which
 * engine gave it (`x-vaani-engine`) and why the ones before it did not (`x-vaani-fallback`).
 */
export async function dispatch<K extends EngineKind>(ctx: Services, job: Dispatch<K>): Promise<Response> {
  const order = preference(ctx.routing(job.model));
  const passed: string[] = [];
  let failure: { error: unknown } | undefined;
  for (const choice of order) {
    const run = candidate(ctx, job, choice);
    if (typeof run === 'string') {
      passed.push(`${choice}: ${run}`);
      continue;
    }
    try {
      const response = await run();
      const headers: Record<string, string> = { 'x-vaani-engine': choice };
      if (passed.length) headers['x-vaani-fallback'] = headerText(passed.join('; '));
      return label(response, headers);
    } catch (error) {
      const unreachable = error instanceof EngineError && error.code === 'remote_unreachable';
      if (job.request.signal.aborted || (choice === 'remote' && !unreachable)) throw error;
      failure = { error };
      passed.push(`${choice}: ${messageOf(error)}`);
    }
  }
  if (failure) throw failure.error;
  throw noEngine(job.model, order, passed);
}

/** A request's own parts, as a route read them. */
export type Incoming = Pick<Dispatch<EngineKind>, 'request' | 'path' | 'raw'>;

/** Dispatch to the `kind` engine of `model` (answered whole unless `streaming`). */
export const dispatchTo = <K extends EngineKind>(
  ctx: Services,
  incoming: Incoming,
  to: { model: string; kind: K; streaming?: boolean },
  local: NonNullable<Dispatch<K>['local']>,
) => dispatch(ctx, { ...incoming, streaming: to.streaming ?? false, model: to.model, kind: to.kind, local });

/** A route's local answer as a Response: a Response as it is, any other value as JSON. */
export const toResponse = (result: unknown): Response => (result instanceof Response ? result : Response.json(result));

/** A chat-engine route's dispatch: the body names the model, and asks for a stream or not. */
export const dispatchChat = (
  ctx: Services,
  incoming: Incoming,
  body: { model: string; stream?: boolean | null },
  local: NonNullable<Dispatch<'chat'>['local']>,
) => dispatchTo(ctx, incoming, { model: body.model, kind: 'chat', streaming: body.stream === true }, local);

/**
 * The chat engine for `model` where routing sends it, for a route that reads chat deltas itself
 * (`/data/query`): the engines routing names, in order, as {@link dispatch} tries them (the remote's
 * `/chat/completions` through {@link remoteChat}); the next runs when one fails before any output.
 */
export function routedChat(ctx: Services, request: Request, model: string, streaming: boolean): ChatEngine {
  const order = preference(ctx.routing(model));
  const passed: string[] = [];
  const engines: [EngineChoice, ChatEngine][] = [];
  for (const choice of order) {
    const engine =
      choice === 'remote'
        ? ctx.remote && remoteChat(ctx.remote, request, streaming)
        : choice === 'builtin'
          ? ctx.builtin.chat
          : ctx.registry.get('chat', model);
    if (engine) engines.push([choice, engine]);
    else passed.push(`${choice}: ${MISSING[choice]}`);
  }
  if (!engines.length) throw noEngine(model, order, passed);
  return {
    async complete(params, hooks) {
      let output = false;
      const watched = { ...hooks, onDelta: (delta: ChatDelta) => ((output = true), hooks.onDelta(delta)) };
      for (const [choice, engine] of engines.slice(0, -1)) {
        try {
          return await engine.complete(params, watched);
        } catch (error) {
          const unreachable = error instanceof EngineError && error.code === 'remote_unreachable';
          if (output || hooks.signal.aborted || (choice === 'remote' && !unreachable)) throw error;
        }
      }
      return engines.at(-1)![1].complete(params, watched);
    },
    // Only where the engine that answers first keeps a cache; a failure costs the answer nothing.
    prefill: async (params, signal) => (await engines[0]![1].prefill?.(params, signal).catch(() => 0)) ?? 0,
  };
}
