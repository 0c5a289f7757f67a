import type { SpeechEngine } from './speech';
import type { TranscriptionEngine } from './transcription';
import type { TransformEngine } from './transform';
import type { ChatEngine } from './chat';
import type { DataEngine } from './data';
import type { EmbeddingsEngine } from './embeddings';
import type { ImagesEngine } from './images';
import type { MemoryEngine } from './memory';

/** What each kind of local engine offers the routes. A new kind is a new key here. */
export interface EngineKinds {
  chat: ChatEngine;
  speech: SpeechEngine;
  transcription: TranscriptionEngine;
  transform: TransformEngine;
  embeddings: EmbeddingsEngine;
  images: ImagesEngine;
  memory: MemoryEngine;
  data: DataEngine;
}
export type EngineKind = keyof EngineKinds;
