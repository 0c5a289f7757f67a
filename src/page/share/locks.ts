/** Takes the Web Lock `name` if no one holds it; resolves to its release, or undefined when it is held. */
export function tryHold(name: string): Promise<(() => void) | undefined> {
  return new Promise((resolve, reject) => {
    navigator.locks
      .request(name, { ifAvailable: true }, (lock) => {
        if (!lock) return resolve(undefined);
        return new Promise<void>((release) => resolve(release));
      })
      .catch(reject);
  });
}

/** Takes the Web Lock `name`, waiting for it; resolves to its release once held. */
export function hold(name: string): Promise<() => void> {
  return new Promise((resolve, reject) => {
    navigator.locks.request(name, () => new Promise<void>((release) => resolve(release))).catch(reject);
  });
}

/** Calls `gone` once no one holds `name` any more (taking the lock for a moment); `stop` gives up waiting. */
export function whenFree(name: string, gone: () => void): { stop(): void } {
  const controller = new AbortController();
  navigator.locks.request(name, { signal: controller.signal }, () => gone()).catch(() => {});
  return { stop: () => controller.abort() };
}
