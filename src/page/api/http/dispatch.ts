import type { EngineKind, EngineKinds } from '../../../protocol/engines';
import type { EngineRegistry } from '../../engines/_registry';
import type { Remote } from './remote';
import type { Routing } from '../../../protocol/options';
import type { ToolRegistry } from '../../services/agents/registry';
import { EngineError } from '../../../protocol/errors';
import type { ResponseStore } from '../responses/_history';
import { ApiError } from './errors';

/** What every route needs besides its request. */
export interface Services {
  registry: EngineRegistry;
  remote: Remote | undefined;
  routing(modelId: string): Routing;
  /** Responses kept for `previous_response_id` (this instance's memory). */
  responses: ResponseStore;
  /** Tools the page registered (`ai.tools`), for /agents/run. */
  tools: ToolRegistry;
  /** Calls one of this service's own routes (`path` under /v1), as the built-in agent tools do. */
  self(path: string, init: RequestInit): Promise<Response>;
  /**
   * `ai.images`' in-page handover: a streamed images request carrying `x-vaani-deliver: <id>` that
   * runs locally hands its encoded images to the receiver under that id instead of base64 in its
   * completed events (see api/images/stream.ts).
   */
  deliveries?: Map<string, (images: Uint8Array[]) => void>;
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

const noEngine = (model: string, routing: Routing) =>
  new ApiError(
    503,
    routing === 'remote-only'
      ? `Model '${model}' is routed 'remote-only' but no remote is configured: pass createVaani({ remote: { baseURL } }).`
      : `Model '${model}' has no local engine in this build and no remote is configured: pass createVaani({ remote: { baseURL, apiKey } }) to forward it.`,
    'model_unavailable',
    'model',
  );

/**
 * A locally answered request names the backend that ran it, when its route did not already. The
 * route's own Response is labelled in place: a copy would turn its bytes into a stream that the
 * caller's `arrayBuffer()` reads back piece by piece. A Response with immutable headers is copied.
 */
function withBackend(response: Response, ctx: Services, model: string): Response {
  const backends = ctx.registry.info(model)?.backends ?? [];
  if (response.headers.has('x-vaani-backend') || backends.length !== 1) return response;
  try {
    response.headers.set('x-vaani-backend', backends[0]!);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    copy.headers.set('x-vaani-backend', backends[0]!);
    return copy;
  }
}

/** Runs a request where its routing says: the local engine, the remote, or one then the other. */
export async function dispatch<K extends EngineKind>(ctx: Services, job: Dispatch<K>): Promise<Response> {
  const routing = ctx.routing(job.model);
  const engine = routing === 'remote-only' || !job.kind ? undefined : ctx.registry.get(job.kind, job.model);
  const forward = () => ctx.remote!.forward(job.path, job.request, job.raw, job.streaming);
  const remote = routing === 'local-only' ? undefined : ctx.remote;

  if (routing === 'remote-first' && remote) {
    if (!engine) return forward();
    try {
      return await forward();
    } catch (error) {
      if (job.request.signal.aborted || !(error instanceof EngineError && error.code === 'remote_unreachable'))
        throw error;
      return withBackend(await job.local!(engine), ctx, job.model);
    }
  }
  if (engine) {
    try {
      return withBackend(await job.local!(engine), ctx, job.model);
    } catch (error) {
      if (!remote || job.request.signal.aborted) throw error;
      return forward();
    }
  }
  if (remote) return forward();
  throw noEngine(job.model, routing);
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
