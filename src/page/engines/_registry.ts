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
  /** The context the local engine really has (tokens), once a model has loaded. */
  contextWindow?: number;
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

/** Maps (kind, model id) to a lazily created local engine. */
export class EngineRegistry {
  private readonly factories: EngineFactory<EngineKind>[] = [];
  private readonly live = new Map<string, { dispose(): void }>();

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
    if (existing) return existing as unknown as EngineKinds[K];
    const factory = this.factory(kind, modelId);
    if (!factory) return undefined;
    const engine = factory.create(modelId);
    this.live.set(key, engine);
    return engine as unknown as EngineKinds[K];
  }

  voices(): Voice[] {
    const all = this.factories.flatMap((f) => f.voices?.() ?? []);
    return all.filter((voice, i) => all.findIndex((other) => other.id === voice.id) === i);
  }

  dispose(): void {
    for (const engine of this.live.values()) engine.dispose();
    this.live.clear();
  }
}
