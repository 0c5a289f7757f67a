import type { FileLoader } from '../../protocol/weights';
import { loadOrt as loadRuntime, type Ort } from '../../common/backends/ort';
import { EngineError } from '../../protocol/errors';
import { storeFull } from '../host/model-slot';

export type { Ort };
export type Session = import('onnxruntime-web').InferenceSession;

/** onnxruntime-web's WASM build, once per worker: TTS models are small enough for one CPU thread. */
export const loadOrt = (): Promise<Ort> => loadRuntime(false, 1);

/** Loads a file through the weight store, turning a failure into a 503 that names the file (a full store: 507). */
export async function loadFile(loader: FileLoader, file: string): Promise<Uint8Array> {
  try {
    return await loader.load(file);
  } catch (error) {
    throw (
      storeFull(error) ??
      new EngineError(
        'unavailable',
        `The voice's file ${file} could not be loaded: ${error instanceof Error ? error.message : String(error)}`,
        'model_load_failed',
        'voice',
      )
    );
  }
}

/** A JSON file of the voice's; one that does not parse is a 503 naming it. */
export async function loadJson<T>(loader: FileLoader, file: string): Promise<T> {
  const text = new TextDecoder().decode(await loadFile(loader, file));
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw brokenFile(file, error instanceof Error ? error.message : String(error));
  }
}

/** A voice file that loaded but cannot be read: a 503 naming it and why. */
export const brokenFile = (file: string, why: string) =>
  new EngineError('unavailable', `The voice's file ${file} is not usable: ${why}`, 'model_load_failed', 'voice');

export async function openSession(loader: FileLoader, file: string): Promise<Session> {
  return sessionFromBytes(await loadFile(loader, file), file);
}

/** A session over a model's bytes already loaded (`file` names it in the error). */
export async function sessionFromBytes(bytes: Uint8Array, file: string): Promise<Session> {
  const runtime = await loadOrt();
  try {
    return await runtime.InferenceSession.create(bytes, { executionProviders: ['wasm'] });
  } catch (error) {
    throw new EngineError(
      'unavailable',
      `The voice's model ${file} could not be opened: ${error instanceof Error ? error.message : String(error)}`,
      'model_load_failed',
      'voice',
    );
  }
}

/** Memoises one promise per key; a rejected load is forgotten so the next request retries. */
export function memo<T>(): (key: string, make: () => Promise<T>) => Promise<T> {
  const cache = new Map<string, Promise<T>>();
  return (key, make) => {
    let value = cache.get(key);
    if (!value) {
      value = make();
      cache.set(key, value);
      value.catch(() => cache.delete(key));
    }
    return value;
  };
}

export function concat(parts: Float32Array[], gapSamples = 0): Float32Array {
  const out = new Float32Array(
    parts.reduce((sum, part) => sum + part.length, 0) + gapSamples * Math.max(0, parts.length - 1),
  );
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length + gapSamples;
  }
  return out;
}
