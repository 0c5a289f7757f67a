import { registerBuiltins } from './engines/index';
import type { VaaniOptions } from './protocol/options';
import { createVaaniWith, type Vaani } from './vaani';

export type { Backend, ModelSource, RemoteOptions, Routing, StoreOptions, VaaniOptions } from './protocol/options';
export type { Vaani } from './vaani';
export type {
  MemoryClient,
  MemoryError,
  MemoryItemInput,
  MemoryListInput,
  MemoryListPage,
  MemorySearchInput,
} from './memory/client';
export type { Memory, MemoryHit } from './protocol/memory';
export type { InputSchema, PageTool, ToolAnnotations, ToolRegistryApi } from './agents/registry';
export type { DataAddOptions, DataAnswer, DataClient, DataError, DataProgress, DataSearchOptions } from './data/client';
export type {
  EditOptions,
  ImageOptions,
  ImagesClient,
  ImagesError,
  ImagesProgress,
  ImagesResult,
} from './images/client';
export type { FileCitation, FileObject, SearchResult, VectorStore, VectorStoreFile } from './protocol/data';
export type { Filter, Metadata, Scope, SearchMode } from './protocol/collections';
export type { LevelDetail, Recorder, RecorderOptions, RecorderState, Recording } from './recorder/recorder';
export type { SpeechSpan, VadOptions } from './recorder/vad';
export type { ImportedFile, ModelLoadOptions, Models } from './store';
export type { CachedModel, FileProgress, ModelProgress, ModelStatus } from './store';
export type { FileSpec } from './protocol/weights';

export { SHARED_FILES } from './catalogue/sources';

/** The in-page /v1 service with every built-in engine registered. */
export function createVaani(options: VaaniOptions = {}): Vaani {
  return createVaaniWith(options, registerBuiltins);
}
