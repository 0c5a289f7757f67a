import { startTrusted } from '../../common/trusted-types';
import type { EngineHosts } from '../hosts/engine-hosts';
import { localHosts } from '../hosts/engine-hosts';
import { EngineSlots } from '../hosts/slots';
import type { WorkerHostOptions } from '../hosts/worker-host';
import { ShareSession } from './session';
import { SharedHost } from './shared-host';

/** Whether this page can share engines: SharedWorker (the broker), Web Locks, and an origin of its own. */
const canShare = () =>
  typeof SharedWorker === 'function' && !!globalThis.navigator?.locks && globalThis.isSecureContext !== false;

function startSession(): ShareSession | undefined {
  try {
    return new ShareSession(
      startTrusted(
        () =>
          new SharedWorker(new URL('../../worker/share/broker.worker.ts', import.meta.url), {
            type: 'module',
            name: 'vaani-broker',
          }),
      ),
    );
  } catch {
    return undefined; // a sandboxed frame (opaque origin) may not start a SharedWorker: engines stay in this tab
  }
}

/**
 * `createVaani({ share })`: with sharing (the default where the page can), hosts given a share key
 * run one engine per site, in whichever tab took it first; without, every engine runs in this tab.
 * The engines this tab runs share one memory budget (`createVaani({ engineBudget })`).
 */
export function engineHosts(share = true, budget?: number): EngineHosts {
  const slots = new EngineSlots(budget);
  if (!share || !canShare()) return localHosts(slots);
  let session: ShareSession | undefined;
  let started = false;
  const sessionOnce = () => {
    if (!started) {
      started = true;
      session = startSession();
    }
    return session;
  };
  const local = localHosts(slots);
  return {
    shared: true,
    host: <T>(options: WorkerHostOptions, key?: string) =>
      key === undefined ? local.host<T>(options) : new SharedHost<T>(sessionOnce, options, key, slots),
    dispose: () => void session?.dispose(),
  };
}
