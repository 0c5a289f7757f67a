export type StoreErrorCode =
  | 'file_not_found'
  | 'http_error'
  | 'not_a_file'
  | 'wrong_size'
  | 'bad_checksum'
  | 'network_error'
  | 'quota_exceeded'
  | 'unknown_model';

/** A store failure; the message names the file and URL and says what to do. */
export class StoreError extends Error {
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

const MB = 1024 * 1024;
export const formatBytes = (bytes: number) =>
  bytes >= 1024 * MB ? `${(bytes / 1024 / MB).toFixed(2)} GB` : bytes >= MB ? `${(bytes / MB).toFixed(1)} MB` : `${bytes} bytes`;

/** The error for a download that does not fit: how much is needed, free, and what could go. */
export function quotaError(file: string, url: string, needed: number, free: number, evictable: Evictable[], limit: 'quota' | 'budget'): StoreError {
  const where = limit === 'budget' ? 'the cache budget' : 'browser storage';
  const could = evictable.length
    ? ` Deleting cached models could free ${evictable.map((m) => `${m.id} (${formatBytes(m.bytes)})`).join(', ')}: call ai.models.delete(id).`
    : ' No other cached model could be deleted to make room.';
  return new StoreError(
    'quota_exceeded',
    `Not enough space in ${where} for ${file} from ${url}: it needs ${formatBytes(needed)} but ${formatBytes(Math.max(0, free))} is free.${could}`,
    file,
    url,
  );
}

export const isQuotaExceeded = (error: unknown) =>
  error instanceof DOMException && (error.name === 'QuotaExceededError' || error.code === 22);

export const isAbort = (error: unknown) =>
  (error instanceof DOMException || error instanceof Error) && error.name === 'AbortError';
