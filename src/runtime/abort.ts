/** What an aborted operation rejects with: the signal's reason when it is an Error, else an AbortError, as fetch does. */
export const abortError = (signal: AbortSignal): Error =>
  signal.reason instanceof Error ? signal.reason : new DOMException('The operation was aborted.', 'AbortError');
