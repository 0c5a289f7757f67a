import type { Vaani } from './vaani';

const KEY = Symbol.for('vaani.instances');

/** The live `createVaani` instances of this page, oldest first (shared by every copy of the library on the page). */
export function pageInstances(): Set<Vaani> {
  const holder = globalThis as { [KEY]?: Set<Vaani> };
  return (holder[KEY] ??= new Set());
}
