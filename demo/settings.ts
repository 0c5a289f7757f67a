import type { Backend, Routing } from './vaani';

/** The routings the Settings tab offers: the named ones, and the browser's model first. */
export type DemoRouting = Exclude<Routing, object> | 'builtin-first';

/** What the Settings tab edits; kept in localStorage. */
export interface DemoSettings {
  /** A server with the same /v1 API that requests may be forwarded to; empty for none. */
  remoteBaseURL: string;
  remoteKey: string;
  routing: DemoRouting;
  backend: Backend;
  /** Where model files come from: the hub when reachable ('auto'), always the hub, or a local folder. */
  modelFiles: 'auto' | 'hub' | 'folder';
  /** The local folder's URL; one sub-folder per model id, listed in its index.json. */
  folder: string;
  /** Whether a Service Worker answers /v1 for the whole site (`serveServiceWorker`, offline copy on). */
  serviceWorker: 'off' | 'on';
}

const KEY = 'vaani-demo-settings';

export const DEFAULTS: DemoSettings = {
  remoteBaseURL: '',
  remoteKey: '',
  routing: 'local-first',
  backend: 'auto',
  modelFiles: 'auto',
  folder: '/models/',
  serviceWorker: 'off',
};

export function loadSettings(): DemoSettings {
  try {
    return { ...DEFAULTS, ...(JSON.parse(localStorage.getItem(KEY) ?? '{}') as Partial<DemoSettings>) };
  } catch {
    return { ...DEFAULTS };
  }
}

export function saveSettings(settings: DemoSettings): void {
  localStorage.setItem(KEY, JSON.stringify(settings));
}

/** The `createVaani` routing of a Settings choice. */
export const routingOf = (routing: DemoRouting): Routing =>
  routing === 'builtin-first' ? { prefer: ['builtin', 'local', 'remote'] } : routing;
