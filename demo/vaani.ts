/** The demo uses the library's public API only; it imports the source so `npm run demo` needs no build. */
export { createVaani, serveServiceWorker, SHARED_FILES, SHRUTI_MODELS } from '../src/index';
export type {
  ImportedFile,
  Backend,
  CachedModel,
  LevelDetail,
  ImagesProgress,
  FitOptions,
  ModelPlan,
  PlanFor,
  ModelProgress,
  Recorder,
  Recording,
  Routing,
  ServedServiceWorker,
  Vaani,
  VaaniOptions,
} from '../src/index';
