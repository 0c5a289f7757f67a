import { createApp } from './api/http/app';
import { ResponseHistory } from './services/responses/history';
import type { Services } from './api/http/dispatch';
import { ToolRegistry, type ToolRegistryApi } from './services/agents/registry';
import { EngineRegistry } from './engines/_registry';
import type { EngineHosts } from './hosts/engine-hosts';
import { engineHosts } from './share';
import { dataClient, type DataClient } from './clients/data';
import { imagesClient, type ImagesClient } from './clients/images';
import { memoryClient, type MemoryClient } from './clients/memory';
import { Recorder, type RecorderOptions } from './recorder/recorder';
import { Remote } from './api/http/remote';
import { askPersist, ModelStore, type Models } from '../common/weights';
import { modelResolver } from './engines/_model-files';
import { filesOwner, filesSource, sourceBase } from '../catalogue/sources';
import { entryOf } from '../catalogue/families';
import { findVoice } from '../catalogue/voices';
import { resolveVoice } from '../catalogue/voice-aliases';
import type { ModelSource, VaaniOptions } from '../protocol/options';
import type { ApproveHook } from '../protocol/approval';
import type { PlanFor } from '../protocol/fit';
import { abortError } from '../protocol/cancel';
import { pageInstances } from './instances';
import { builtinEngines, builtinModel, type BuiltinModel } from './builtin';
import { preference } from './api/http/dispatch';
import { routingOf } from './api/http/routing';
import { noteCached, partOf, planModel, planTarget, type ModelPlan, type PlanContext } from './services/plan';
import { Tiers } from './services/tiers';
import { NotFoundError } from './clients/errors';
import { builtinAvailability } from './builtin';
import { FitGate, filesRead, type Confirmer } from './services/fit-gate';
import { validateFit, validatePlanFor } from '../common/fit/policy';
import { deviceFacts } from '../common/fit/device';

/** `ai.plan`: plans a model or product, and the download policy's answers (`createVaani({ fit })`). */
export interface PlanApi {
  /**
   * What running a model here takes, before any byte of it moves: its download (exact where a
   * manifest or the cache knows it), the memory it needs, what this device and network report, and
   * the decision (local, remote or none) with its reason. A product ('chat', 'voice', …) plans its
   * default model. An unknown id throws NotFoundError. `{ language }` plans speech recognition for
   * that language: IndicConformer's files for its 22 languages (where the tier routes them there),
   * else Whisper's; `{ voice }` plans a speech model's voice's weights (an unknown voice throws
   * NotFoundError).
   */
  (idOrProduct: string, options?: PlanFor): Promise<ModelPlan>;
  /**
   * Forgets the download policy's answers (a declined or accepted download) for one model or
   * product, or for all: its next request plans and asks again.
   */
  reset(idOrProduct?: string): void;
  /**
   * Adds a consent dialog asked where `createVaani({ fit: { confirm } })` is not given (the widgets
   * add theirs; the newest is asked); returns its removal.
   */
  confirmer(confirm: Confirmer): () => void;
}

export interface Vaani {
  readonly baseURL: string;
  /** Whether this Vaani shares its model engines with the site's other tabs (`share`, where the browser can). */
  readonly shared: boolean;
  /** Downloads, cache state and events of local models' files. */
  readonly models: Models;
  /** The service's fetch; `init.approve` is the request's own approval hook (agent runs, see ApproveHook). */
  fetch(input: RequestInfo | URL, init?: RequestInit & { approve?: ApproveHook }): Promise<Response>;
  /** A microphone recorder (AudioWorklet, 16 kHz mono, optional Silero VAD) whose `file` posts to /v1/audio/transcriptions. */
  recorder(options?: RecorderOptions): Recorder;
  /** The memory routes as methods: store, search, get, list, update, delete, deleteScope. */
  readonly memory: MemoryClient;
  /** Files, vector stores and grounded answers as methods: add, search, ask; `progress` events per file. */
  readonly data: DataClient;
  /** The images routes as methods giving Blobs: generate, edit; `progress` events after every denoising step. */
  readonly images: ImagesClient;
  /** The browser's own model (Chrome's Prompt API): its availability, and its download from a user gesture. */
  readonly builtin: BuiltinModel;
  /** Tools the page offers to `/v1/agents/run`: `register({ name, description, inputSchema, execute })` → unregister. */
  readonly tools: ToolRegistryApi;
  /** Plans a model or product (`ai.plan('chat')`); `reset` and `confirmer` for the download policy. See PlanApi. */
  readonly plan: PlanApi;
  install(): void;
  uninstall(): void;
  dispose(): void;
}

/** Creates the in-page service. Engines are registered by the caller (see index.ts). */
export function createVaaniWith(
  given: VaaniOptions,
  register: (registry: EngineRegistry, options: VaaniOptions, hosts: EngineHosts) => void,
): Vaani {
  validateFit(given.fit);
  // This Vaani's own `models`: the tiers write their sources into it, never into the app's object.
  const options: VaaniOptions = { ...given, models: { ...given.models } };
  const tiers = new Tiers(
    options,
    options.models as Record<string, ModelSource>,
    (given.models ?? {}) as Record<string, ModelSource>,
  );
  const base = new URL(options.baseURL ?? '/v1', globalThis.location?.href);
  const baseURL = base.href.replace(/\/+$/, '');
  const realFetch = globalThis.fetch.bind(globalThis);
  const registry = new EngineRegistry(
    async (kind, id, args, part) => {
      if (part !== undefined) return gate.allow(kind, id, part ?? undefined);
      const reads = filesRead(kind, id, args);
      if (reads !== undefined) return gate.allow(kind, reads);
      // An engine that gates its files itself reads its tier's sources: the tier is settled first.
      if (tiers.productOf(id)) tiers.plan(id, await deviceFacts({ probeGpu: false }));
    },
    (kind, id, part) => gate.done(kind, id, part),
  );
  const hosts = engineHosts(options.share, options.engineBudget);
  register(registry, options, hosts);
  const resolve = modelResolver(options, registry);
  const models = new ModelStore(
    // ai.models.load reads the tier's files: the tier is settled first.
    async (id) => {
      if (tiers.productOf(id)) tiers.plan(id, await deviceFacts({ probeGpu: false }));
      return resolve(id);
    },
    options.store,
    (id) => sourceBase(filesSource(id, options)),
    (id) => filesOwner(id, options.models),
  );

  const routing = routingOf(options.routing);
  const tools = new ToolRegistry();
  const planning: PlanContext = {
    options,
    models,
    remote: options.remote !== undefined,
    order: (id) => preference(routing(id)),
    builtin: builtinAvailability,
    local: (id) => registry.info(id) !== undefined,
    tiers,
    seen: new Map(),
    evicted: (id) => gate.evicted(id),
  };
  // The app deleting files in this page is not an eviction: the page forgets what it saw cached.
  const forget = (model?: string) => {
    for (const key of planning.seen!.keys())
      if (model === undefined || key.startsWith(`${model} `)) planning.seen!.delete(key);
  };
  const deleteModel = models.delete.bind(models);
  const clearModels = models.clear.bind(models);
  models.delete = (id) => deleteModel(id).finally(() => forget(filesOwner(id, options.models)));
  models.clear = () => clearModels().finally(() => forget());
  /** A plan for a catalogue id and what `options` name: a language (speech recognition) or a voice (its weights). */
  const planFor = (id: string, options?: PlanFor) => {
    if (options?.voice !== undefined && entryOf(id)?.engines.includes('speech')) {
      const voice = resolveVoice(options.voice);
      if (!findVoice(voice))
        throw new NotFoundError(
          404,
          `The voice '${options.voice}' does not exist.`,
          'voice_not_found',
          'voice',
          'invalid_request_error',
        );
      const weights = filesRead('speech', id, [{ voice }]);
      if (weights) return planModel(planning, weights);
    }
    return planModel(planning, id, { language: options?.language });
  };
  const gate = new FitGate({
    fit: options.fit ?? {},
    owner: (id) => filesOwner(id, options.models),
    remote: (id) => options.remote !== undefined && preference(routing(id)).includes('remote'),
    // No adapter probe of its own: Chromium logs a warning in the page where there is none.
    plan: (id, part) => planModel({ ...planning, device: () => deviceFacts({ probeGpu: false }) }, id, partOf(part)),
    persist: () => void askPersist(),
    note: (id, part) => noteCached(planning, id, partOf(part)),
  });
  const ctx: Services = {
    registry,
    routing,
    builtin: builtinEngines(),
    remote: options.remote ? new Remote(options.remote, realFetch) : undefined,
    responses: new ResponseHistory(),
    tools,
    runs: new ResponseHistory(),
    approve: options.approve,
    runApprovers: new WeakMap(),
    self: async (path, init) => app.fetch(new Request(`${baseURL}${path}`, init)),
    deliveries: new Map(),
    plan: (id, options) => planFor(id, options),
    tiers: async () => tiers.settle(await deviceFacts({ probeGpu: false })),
    licences: options.licences ?? 'commercial',
  };
  const app = createApp(ctx, base.pathname, options.auth ?? 'required');

  const answers = (url: string) => url === baseURL || url.startsWith(`${baseURL}/`) || url.startsWith(`${baseURL}?`);

  async function vaaniFetch(
    input: RequestInfo | URL,
    init?: RequestInit & { approve?: ApproveHook },
  ): Promise<Response> {
    const url = input instanceof Request ? input.url : new URL(String(input), globalThis.location?.href).href;
    if (!answers(url)) return realFetch(input, init);
    const request = new Request(input, init);
    if (typeof init?.approve === 'function') ctx.runApprovers.set(request, init.approve);
    const signal = request.signal;
    if (signal.aborted) throw abortError(signal);
    return new Promise<Response>((resolve, reject) => {
      const onAbort = () => reject(abortError(signal));
      signal.addEventListener('abort', onAbort, { once: true });
      Promise.resolve(app.fetch(request))
        .then(resolve, reject)
        .finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  let installed: typeof fetch | undefined;
  const shim = ((input: RequestInfo | URL, init?: RequestInit) => vaaniFetch(input, init)) as typeof fetch;

  const vaani: Vaani = {
    baseURL,
    shared: hosts.shared,
    models,
    fetch: vaaniFetch,
    recorder: (recorderOptions) => new Recorder(recorderOptions),
    memory: memoryClient(vaaniFetch, baseURL),
    tools,
    builtin: builtinModel,
    data: dataClient(vaaniFetch, baseURL),
    images: imagesClient(vaaniFetch, baseURL, ctx.deliveries),
    plan: Object.assign(
      async (idOrProduct: string, options?: PlanFor) => {
        validatePlanFor(options);
        const id = typeof idOrProduct === 'string' ? planTarget(idOrProduct) : undefined;
        if (!id)
          throw new NotFoundError(
            404,
            `The model or product '${String(idOrProduct)}' does not exist.`,
            'model_not_found',
            'model',
            'invalid_request_error',
          );
        return planFor(id, options);
      },
      {
        reset: (idOrProduct?: string) =>
          gate.reset(idOrProduct === undefined ? undefined : (planTarget(idOrProduct) ?? idOrProduct)),
        confirmer: (confirm: Confirmer) => gate.confirmer(confirm),
      },
    ),
    install() {
      if (installed) return;
      installed = globalThis.fetch;
      globalThis.fetch = shim;
    },
    uninstall() {
      if (!installed) return;
      if (globalThis.fetch === shim) globalThis.fetch = installed;
      installed = undefined;
    },
    dispose() {
      this.uninstall();
      registry.dispose();
      hosts.dispose();
      models.dispose();
      pageInstances().delete(vaani);
    },
  };
  pageInstances().add(vaani);
  return vaani;
}
