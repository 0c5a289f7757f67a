/**
 * `navigator.storage.persist()`, asked once per page: with the first large model download (so the
 * browser does not evict the weights under storage pressure) and the first memory stored; the plan
 * reports the answer.
 */
let asked: Promise<boolean> | undefined;
let granted: boolean | null = null;

/** Asks for persistent storage once per page; later calls do nothing. */
export function askPersist(): Promise<boolean> {
  asked ??= Promise.resolve()
    .then(() => globalThis.navigator?.storage?.persist?.() ?? false)
    .catch(() => false)
    .then((answer) => (granted = answer === true));
  return asked;
}

/** Whether it was asked in this page and what the browser answered (null while it has not). */
export const persistState = (): { asked: boolean; granted: boolean | null } => ({
  asked: asked !== undefined,
  granted,
});
