// The /v1 service: every path, in matching order. A route's GET/POST/DELETE are its methods; every
// other method gets the one 405 (http/app.ts). Static paths come before a sibling {param}.
import { agentsRun } from './agents/run';
import { speech, speechFormats } from './audio/speech';
import { transcriptions } from './audio/_transcribe';
import { transform } from './audio/_transform';
import { chatCompletions } from './chat/completions';
import { codeCompletions } from './code/completions';
import { completions } from './completions';
import { dataQuery } from './data/query';
import { embeddings } from './embeddings';
import { createFile, fileContent, fileItem, listFiles } from './files';
import type { RouteModule } from './http/dispatch';
import { imageEdits } from './images/edits';
import { imageGenerations } from './images/generations';
import { memoryDelete, memoryItem, memoryList } from './memory/{memory_id}';
import { memorySearch } from './memory/search';
import { memoryStore } from './memory/store';
import { getModel, listModels } from './models';
import { createResponse, deleteResponse, getResponse } from './responses';
import { listInputItems } from './responses/{response_id}/input_items';
import { searchStore } from './vector_stores/{vector_store_id}/search';
import {
  addBatch,
  addFile,
  batchItem,
  listStoreFiles,
  storeFile,
  storeFileContent,
} from './vector_stores/{vector_store_id}/files';
import { createStore, listStores, storeItem } from './vector_stores';
import { listVoices } from './voices';

export const ROUTES = {
  '/chat/completions': { POST: chatCompletions },
  '/completions': { POST: completions },
  '/audio/speech': { POST: speech },
  '/audio/transcriptions': { POST: transcriptions('transcribe') },
  '/audio/translations': { POST: transcriptions('translate') },
  '/audio/speech-to-speech': { POST: transform('speechToSpeech') },
  '/audio/voice-changer': { POST: transform('changeVoice') },
  '/audio/isolate': { POST: transform('isolate') },
  '/images/generations': { POST: imageGenerations },
  '/images/edits': { POST: imageEdits },
  '/code/completions': { POST: codeCompletions },
  '/responses': { POST: createResponse },
  '/agents/run': { POST: agentsRun },
  '/embeddings': { POST: embeddings },
  '/data/query': { POST: dataQuery },
  '/models': { GET: (ctx) => listModels(ctx) },
  '/models/{model}': { GET: async (ctx, _request, _path, p) => getModel(ctx, p.model!) },
  '/voices': { GET: (ctx) => listVoices(ctx) },
  '/audio/speech/formats': { GET: (ctx, request) => speechFormats(ctx, request) },
  '/responses/{response_id}/input_items': {
    GET: async (ctx, request, _path, p) => listInputItems(ctx, request, p.response_id!),
  },
  '/responses/{response_id}': {
    GET: async (ctx, _request, _path, p) => getResponse(ctx, p.response_id!),
    DELETE: async (ctx, _request, _path, p) => deleteResponse(ctx, p.response_id!),
  },
  '/memory/store': { POST: memoryStore },
  '/memory/search': { POST: memorySearch },
  '/memory/recall': { POST: memorySearch },
  '/memory/delete': { POST: memoryDelete },
  '/memory': { GET: memoryList },
  '/memory/{memory_id}': {
    GET: (ctx, request, path, p) => memoryItem(p.memory_id!)(ctx, request, path),
    POST: (ctx, request, path, p) => memoryItem(p.memory_id!)(ctx, request, path),
    DELETE: (ctx, request, path, p) => memoryItem(p.memory_id!)(ctx, request, path),
  },
  '/files': { GET: listFiles, POST: createFile },
  '/files/{file_id}': {
    GET: (ctx, request, path, p) => fileItem(p.file_id!)(ctx, request, path),
    DELETE: (ctx, request, path, p) => fileItem(p.file_id!)(ctx, request, path),
  },
  '/files/{file_id}/content': { GET: (ctx, request, path, p) => fileContent(p.file_id!)(ctx, request, path) },
  '/vector_stores': { GET: listStores, POST: createStore },
  '/vector_stores/{vector_store_id}': {
    GET: (ctx, request, path, p) => storeItem(p.vector_store_id!)(ctx, request, path),
    POST: (ctx, request, path, p) => storeItem(p.vector_store_id!)(ctx, request, path),
    DELETE: (ctx, request, path, p) => storeItem(p.vector_store_id!)(ctx, request, path),
  },
  '/vector_stores/{vector_store_id}/search': {
    POST: (ctx, request, path, p) => searchStore(p.vector_store_id!)(ctx, request, path),
  },
  '/vector_stores/{vector_store_id}/files': {
    GET: (ctx, request, path, p) => listStoreFiles(p.vector_store_id!)(ctx, request, path),
    POST: (ctx, request, path, p) => addFile(p.vector_store_id!)(ctx, request, path),
  },
  '/vector_stores/{vector_store_id}/files/{file_id}': {
    GET: (ctx, request, path, p) => storeFile(p.vector_store_id!, p.file_id!)(ctx, request, path),
    POST: (ctx, request, path, p) => storeFile(p.vector_store_id!, p.file_id!)(ctx, request, path),
    DELETE: (ctx, request, path, p) => storeFile(p.vector_store_id!, p.file_id!)(ctx, request, path),
  },
  '/vector_stores/{vector_store_id}/files/{file_id}/content': {
    GET: (ctx, request, path, p) => storeFileContent(p.vector_store_id!, p.file_id!)(ctx, request, path),
  },
  '/vector_stores/{vector_store_id}/file_batches': {
    POST: (ctx, request, path, p) => addBatch(p.vector_store_id!)(ctx, request, path),
  },
  '/vector_stores/{vector_store_id}/file_batches/{batch_id}': {
    GET: (ctx, request, path, p) => batchItem(p.vector_store_id!, p.batch_id!, false)(ctx, request, path),
  },
  '/vector_stores/{vector_store_id}/file_batches/{batch_id}/cancel': {
    POST: (ctx, request, path, p) => batchItem(p.vector_store_id!, p.batch_id!, true)(ctx, request, path),
  },
  '/vector_stores/{vector_store_id}/file_batches/{batch_id}/files': {
    GET: (ctx, request, path, p) => listStoreFiles(p.vector_store_id!, p.batch_id!)(ctx, request, path),
  },
} satisfies Record<string, RouteModule>;
