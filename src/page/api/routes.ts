// The /v1 service: every path, in matching order, and the module at the file its path spells. A
// module's GET/POST/DELETE are its methods; every other method gets the one 405 (http/app.ts).
import * as agentsRun from './agents/run';
import * as audioIsolate from './audio/isolate';
import * as audioSpeech from './audio/speech';
import * as audioSpeechToSpeech from './audio/speech-to-speech';
import * as audioSpeechFormats from './audio/speech/formats';
import * as audioTranscriptions from './audio/transcriptions';
import * as audioTranslations from './audio/translations';
import * as audioVoiceChanger from './audio/voice-changer';
import * as chatCompletions from './chat/completions';
import * as codeCompletions from './code/completions';
import * as completions from './completions';
import * as dataQuery from './data/query';
import * as embeddings from './embeddings';
import * as files from './files';
import * as filesByFile from './files/{file_id}';
import * as filesByFileContent from './files/{file_id}/content';
import * as imagesEdits from './images/edits';
import * as imagesGenerations from './images/generations';
import * as memory from './memory';
import * as memoryDelete from './memory/delete';
import * as memoryRecall from './memory/recall';
import * as memorySearch from './memory/search';
import * as memoryStore from './memory/store';
import * as memoryByMemory from './memory/{memory_id}';
import * as models from './models';
import * as modelsByModel from './models/{model}';
import * as responses from './responses';
import * as responsesByResponse from './responses/{response_id}';
import * as responsesByResponseInputItems from './responses/{response_id}/input_items';
import * as vectorStores from './vector_stores';
import * as vectorStoresByVectorStore from './vector_stores/{vector_store_id}';
import * as vectorStoresByVectorStoreFileBatches from './vector_stores/{vector_store_id}/file_batches';
import * as vectorStoresByVectorStoreFileBatchesByBatch from './vector_stores/{vector_store_id}/file_batches/{batch_id}';
import * as vectorStoresByVectorStoreFileBatchesByBatchCancel from './vector_stores/{vector_store_id}/file_batches/{batch_id}/cancel';
import * as vectorStoresByVectorStoreFileBatchesByBatchFiles from './vector_stores/{vector_store_id}/file_batches/{batch_id}/files';
import * as vectorStoresByVectorStoreFiles from './vector_stores/{vector_store_id}/files';
import * as vectorStoresByVectorStoreFilesByFile from './vector_stores/{vector_store_id}/files/{file_id}';
import * as vectorStoresByVectorStoreFilesByFileContent from './vector_stores/{vector_store_id}/files/{file_id}/content';
import * as vectorStoresByVectorStoreSearch from './vector_stores/{vector_store_id}/search';
import * as voices from './voices';
import type { RouteModule } from './http/dispatch';

export const ROUTES = {
  '/chat/completions': chatCompletions,
  '/completions': completions,
  '/code/completions': codeCompletions,
  '/responses': responses,
  '/responses/{response_id}': responsesByResponse,
  '/responses/{response_id}/input_items': responsesByResponseInputItems,
  '/agents/run': agentsRun,
  '/audio/speech': audioSpeech,
  '/audio/speech/formats': audioSpeechFormats,
  '/audio/transcriptions': audioTranscriptions,
  '/audio/translations': audioTranslations,
  '/audio/isolate': audioIsolate,
  '/audio/voice-changer': audioVoiceChanger,
  '/audio/speech-to-speech': audioSpeechToSpeech,
  '/images/generations': imagesGenerations,
  '/images/edits': imagesEdits,
  '/embeddings': embeddings,
  '/models': models,
  '/models/{model}': modelsByModel,
  '/voices': voices,
  '/memory': memory,
  '/memory/store': memoryStore,
  '/memory/search': memorySearch,
  '/memory/recall': memoryRecall,
  '/memory/delete': memoryDelete,
  // static paths before a sibling {param}: POST /memory/store must not reach /memory/{memory_id}
  '/memory/{memory_id}': memoryByMemory,
  '/files': files,
  '/files/{file_id}': filesByFile,
  '/files/{file_id}/content': filesByFileContent,
  '/vector_stores': vectorStores,
  '/vector_stores/{vector_store_id}': vectorStoresByVectorStore,
  '/vector_stores/{vector_store_id}/search': vectorStoresByVectorStoreSearch,
  '/vector_stores/{vector_store_id}/files': vectorStoresByVectorStoreFiles,
  '/vector_stores/{vector_store_id}/files/{file_id}': vectorStoresByVectorStoreFilesByFile,
  '/vector_stores/{vector_store_id}/files/{file_id}/content': vectorStoresByVectorStoreFilesByFileContent,
  '/vector_stores/{vector_store_id}/file_batches': vectorStoresByVectorStoreFileBatches,
  '/vector_stores/{vector_store_id}/file_batches/{batch_id}': vectorStoresByVectorStoreFileBatchesByBatch,
  '/vector_stores/{vector_store_id}/file_batches/{batch_id}/cancel': vectorStoresByVectorStoreFileBatchesByBatchCancel,
  '/vector_stores/{vector_store_id}/file_batches/{batch_id}/files': vectorStoresByVectorStoreFileBatchesByBatchFiles,
  '/data/query': dataQuery,
} as const satisfies Record<string, RouteModule>;
