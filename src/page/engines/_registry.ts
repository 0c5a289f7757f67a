import type { Voice } from '../../protocol/speech';
import type { EngineKind, EngineKinds } from '../../protocol/engines';
import type { ModelFiles } from '../../protocol/weights';
import type { VaaniOptions } from '../../protocol/options';
import type { EngineHosts } from '../hosts/engine-hosts';

export interface EngineInfo {
  /** Backends this engine can run on in this browser, e.g. ['webgpu', 'wasm']. */
  backends: string[];
  /** ISO-639-1 codes a speech recognition model recognises (listed by /v1/models). */
  languages?: string[];
  /** For speech recognition: the family that recognises each language ('indic-conformer' or 'whisper'). */
  languageEngines?: Record<string, string>;
  /** For speech recognition: the compact per-language models it may pick, each with its download. */
  compactModels?: CompactModel[];
  /** The context the local engine really has (tokens), once a model has loaded. */
  contextWindow?: number;
}

/** A per-language speech-recognition model as /v1/models lists it (`compact_models`). */
export interface CompactModel {
  language: string;
  engine: 'shruti';
  name: string;
  repo: string | null;
  /** The catalogue's figure for its folder; null where the app names its own location (its manifest, if any, says). */
  download_bytes: number | null;
  license: string | null;
  commercial: boolean | null;
}

export interface EngineFactory<K extends EngineKind> {
  kind: K;
  /** Catalogue ids this engine answers. */
  models: readonly string[];
  info(): EngineInfo;
  /** Voices this engine can speak or convert to, listed without starting it. */
  voices?(): Voice[];
  create(modelId: string): EngineKinds[K] & { dispose(): void };
  /** The files a model needs (for `ai.models.load`), in this browser's dtype. */
  files?(modelId: string): Promise<ModelFiles | undefined>;
}

/** What an engine file's factories get. */
export interface EngineContext {
  options: VaaniOptions;
  hosts: EngineHosts;
  registry: EngineRegistry;
}

/** An engine file's default export: its kind and the factories for the ids the family table gives it. */
export interface EngineModule<K extends EngineKind = EngineKind> {
  kind: K;
  factories(ctx: EngineContext): EngineFactory<K>[];
}

export const defineEngine = <K extends EngineKind>(engine: EngineModule<K>): EngineModule<K> => engine;

/** The calls of each kind that read a model's files: the fit gate runs before each. */
const READS_FILES: Partial<Record<EngineKind, readonly string[]>> = {
  chat: ['complete', 'prefill'],
  transcription: ['transcribe'],
  speech: ['speak'],
  embeddings: ['embed'],
  images: ['generate', 'edit'],
};

/**
 * Runs before a call that reads a model's files; throws to refuse it (the download policy). `part`
 * is given where the engine gates its files itself ({@link EngineRegistry.allow}): null for the
 * model's own files, else the part ('indic-conformer').
 */
export type EngineGate = (kind: EngineKind, modelId: string, args: unknown[], part?: string | null) => Promise<void>;

/** Runs after a call that read a model's files answered (the plan notes what is cached now); `part` as for the gate. */
export type EngineDone = (kind: EngineKind, modelId: string, part?: string | null) => Promise<void>;

/**
 * The engine `create` makes, started only when first used: a call that reads model files awaits
 * `gate` first, so the engine reads the sources the plan settled (its tier) and nothing before.
 */
function gated<T extends object>(
  create: () => T,
  kind: EngineKind,
  modelId: string,
  gate: EngineGate,
  done?: EngineDone,
): T {
  const reads = READS_FILES[kind] ?? [];
  let engine: T | undefined;
  const real = () => (engine ??= create());
  return new Proxy({} as T, {
    get(_, property) {
      // Not a thenable: awaiting the view must not start the engine.
      if (property === 'then') return undefined;
      if (reads.includes(property as string))
        return async (...args: unknown[]) => {
          await gate(kind, modelId, args);
          const target = real();
          const answer = await (Reflect.get(target, property, target) as (...a: unknown[]) => unknown).apply(
            target,
            args,
          );
          await done?.(kind, modelId).catch(() => undefined);
          return answer;
        };
      const target = real();
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Maps (kind, model id) to a lazily created local engine. */
export class EngineRegistry {
  private readonly factories: EngineFactory<EngineKind>[] = [];
  private readonly live = new Map<string, { engine: { dispose(): void }; gated: object }>();

  /** `gate`: the download policy, run before each call that reads a model's files; `done` after it answered. */
  constructor(
    private readonly gate?: EngineGate,
    private readonly done?: EngineDone,
  ) {}

  add<K extends EngineKind>(factory: EngineFactory<K>): void {
    this.factories.push(factory as unknown as EngineFactory<EngineKind>);
  }

  private factory(kind: EngineKind, modelId: string) {
    return this.factories.find((f) => f.kind === kind && f.models.includes(modelId));
  }

  info(modelId: string): EngineInfo | undefined {
    return this.factories.find((f) => f.models.includes(modelId))?.info();
  }

  /** The files of a model, from the first factory that lists them. */
  async files(modelId: string): Promise<ModelFiles | undefined> {
    for (const factory of this.factories.filter((f) => f.models.includes(modelId) && f.files)) {
      const files = await factory.files!(modelId);
      if (files) return files;
    }
    return undefined;
  }

  get<K extends EngineKind>(kind: K, modelId: string): EngineKinds[K] | undefined {
    const key = `${kind}:${modelId}`;
    const existing = this.live.get(key);
    if (existing) return existing.gated as EngineKinds[K];
    const factory = this.factory(kind, modelId);
    if (!factory) return undefined;
    let engine: { dispose(): void } | undefined;
    const create = () => (engine ??= factory.create(modelId));
    const view = this.gate ? gated(create, kind, modelId, this.gate, this.done) : create();
    this.live.set(key, { engine: { dispose: () => engine?.dispose() }, gated: view });
    return view as unknown as EngineKinds[K];
  }

  /**
   * For an engine that gates its own files (speech recognition: Whisper's or IndicConformer's, by
   * language): resolves when the download policy lets `part` of them (null: the model's own) be read.
   */
  allow(kind: EngineKind, modelId: string, part: string | null): Promise<void> {
    return this.gate?.(kind, modelId, [], part) ?? Promise.resolve();
  }

  /** After such an engine's call read `part` of its files (the plan notes what is cached now). */
  read(kind: EngineKind, modelId: string, part: string | null): Promise<void> {
    return this.done?.(kind, modelId, part).catch(() => undefined) ?? Promise.resolve();
  }

  voices(): Voice[] {
    const all = this.factories.flatMap((f) => f.voices?.() ?? []);
    return all.filter((voice, i) => all.findIndex((other) => other.id === voice.id) === i);
  }

  dispose(): void {
    for (const { engine } of this.live.values()) engine.dispose();
    this.live.clear();
  }
}
