import { registerBuiltins } from './page/engines/index';
import type { VaaniOptions } from './protocol/options';
import { createVaaniWith, type Vaani } from './page/vaani';

export type {
  AuthMode,
  Backend,
  DataOptions,
  EmbeddingSettings,
  EngineChoice,
  ImageModelSettings,
  ChatModelSettings,
  IndicSource,
  MemoryOptions,
  ModelSource,
  RemoteOptions,
  Routing,
  SpeechRecognitionSource,
  StoreOptions,
  VaaniOptions,
} from './protocol/options';
export type { Vaani } from './page/vaani';
export type { BuiltinModel } from './page/builtin';
export type {
  MemoryClient,
  MemoryItemInput,
  MemoryListInput,
  MemoryListPage,
  MemorySearchInput,
} from './page/clients/memory';
export type { Memory, MemoryHit } from './protocol/memory';
export type {
  InputSchema,
  NeedsApproval,
  PageTool,
  ToolAnnotations,
  ToolRegistryApi,
} from './page/services/agents/registry';
export type { ApprovalCall, ApprovalContext, ApproveHook } from './protocol/approval';
export type { DataAddOptions, DataAnswer, DataClient, DataProgress, DataSearchOptions } from './page/clients/data';
export type { EditOptions, ImageOptions, ImagesClient, ImagesProgress, ImagesResult } from './page/clients/images';
export type { FileCitation, FileObject, SearchResult, VectorStore, VectorStoreFile } from './protocol/data';
export type { Filter, Metadata, Scope, SearchMode } from './protocol/collections';
export type {
  LevelDetail,
  Recorder,
  RecorderOptions,
  RecorderState,
  Recording,
  SpeechEventDetail,
  SpeechPauseDetail,
} from './page/recorder/recorder';
export type { SpeechSpan, VadOptions } from './page/recorder/vad';
export type { ImportedFile, ModelLoadOptions, Models } from './common/weights';
export type { CachedModel, FileProgress, ModelProgress, ModelStatus } from './common/weights';
export type { FileSpec } from './protocol/weights';
export type { DeviceFacts } from './common/fit/decide';
export type {
  Basis,
  ConsentWhy,
  Decision,
  DeclineCode,
  DownloadConsent,
  FitOptions,
  ModelPlan,
  PlanFor,
  Tier,
  TierOption,
  TierPlan,
  TierProduct,
} from './protocol/fit';
export type { PlanApi } from './page/vaani';

export { SHARED_FILES } from './catalogue/sources';
export { DEFAULT_MODELS } from './catalogue/families';
export { SHRUTI_MODELS } from './catalogue/shruti';
export {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  DataError,
  ImagesError,
  InternalServerError,
  MemoryError,
  NotFoundError,
  RateLimitError,
  VaaniError,
} from './page/clients/errors';
export { StoreError } from './common/weights';
export { serveServiceWorker } from './page/sw/serve';
export type { ServedServiceWorker, ServedVaani, ServiceWorkerOptions } from './page/sw/serve';

/** The in-page /v1 service with every built-in engine registered. */
export function createVaani(options: VaaniOptions = {}): Vaani {
  return createVaaniWith(options, registerBuiltins);
}
