import { VaaniError } from '../../protocol/errors';

export type StoreErrorCode =
  | 'file_not_found'
  | 'http_error'
  | 'not_a_file'
  | 'wrong_size'
  | 'bad_checksum'
  | 'network_error'
  | 'quota_exceeded'
  | 'storage_unavailable'
  | 'unknown_model';

/** A store failure; the message names the file and URL and says what to do. */
export class StoreError extends VaaniError {
  constructor(
    readonly code: StoreErrorCode,
    message: string,
    readonly file?: string,
    readonly url?: string,
  ) {
    super(message);
    this.name = 'StoreError';
  }
}

/** A model that could be deleted to make room. */
export interface Evictable {
  id: string;
  bytes: number;
}

/** An evictable model and when it was last used. */
export interface Candidate extends Evictable {
  lastUsed: number;
}

const UNITS: [number, string, number][] = [
  [1024 ** 3, 'GB', 2],
  [1024 ** 2, 'MB', 1],
  [1024, 'KB', 1],
];
export function formatBytes(bytes: number): string {
  const [size, unit, digits] = UNITS.find(([size]) => bytes >= size) ?? [1, 'bytes', 0];
  return `${(bytes / size).toFixed(digits)} ${unit}`;
}

/**
 * The error for a download that does not fit: how much is needed, free, and what could go.
 * `limit` 'refused' is a write the browser turned down (QuotaExceededError) whatever its estimate said.
 */
export function quotaError(
  file: string,
  url: string,
  needed: number,
  free: number,
  evictable: Evictable[],
  limit: 'quota' | 'budget' | 'refused',
): StoreError {
  const could = evictable.length
    ? ` Deleting cached models could free ${evictable.map((m) => `${m.id} (${formatBytes(m.bytes)})`).join(', ')}: call ai.models.delete(id).`
    : ' No other cached model could be deleted to make room.';
  const what =
    limit === 'refused'
      ? `The browser refused to store ${file} from ${url} (QuotaExceededError): it needs ${formatBytes(needed)}; the storage estimate says ${formatBytes(Math.max(0, free))} is free. Nothing of it was kept.`
      : `Not enough space in ${limit === 'budget' ? 'the cache budget' : 'browser storage'} for ${file} from ${url}: it needs ${formatBytes(needed)} but ${formatBytes(Math.max(0, free))} is free.`;
  return new StoreError('quota_exceeded', what + could, file, url);
}

/** A store refusal for lack of room (quota or budget): no other backend or dtype would fit either. */
export const isStoreFull = (error: unknown): error is StoreError =>
  error instanceof StoreError && error.code === 'quota_exceeded';

export const isQuotaExceeded = (error: unknown) =>
  error instanceof DOMException && (error.name === 'QuotaExceededError' || error.code === 22);

export const isAbort = (error: unknown) =>
  (error instanceof DOMException || error instanceof Error) && error.name === 'AbortError';
