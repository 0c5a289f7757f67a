import type { Backend, FitOptions, Routing } from './vaani';

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
  /** `createVaani({ fit: { metered } })`: a large download on a metered connection. */
  metered: 'ask' | 'remote' | 'local';
  /** `fit.maxDownloadBytes` in MB; empty for the default (100 MB where metered or short of memory). */
  maxDownloadMB: string;
  /** `fit.tier`: every product's small / medium / large default, or 'auto' (picked by device). */
  tier: 'auto' | 'small' | 'medium' | 'large';
  /** `models[id].chat.graphCapture` for every chat model: replayed decode steps on WebGPU (fused-attention exports). */
  graphCapture: 'off' | 'on';
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
  metered: 'ask',
  maxDownloadMB: '',
  tier: 'auto',
  graphCapture: 'off',
};

/** The catalogue's chat models (those `graphCapture` applies to). */
const CHAT_MODELS = ['chat-v2', 'chat-v2-pro', 'code-v1', 'code-v1-base', 'agent-v1'];

/** `models` with graph capture turned on for every chat model when the setting says so. */
export function withCapture(models: Record<string, object>, settings: DemoSettings): Record<string, object> {
  if (settings.graphCapture !== 'on') return models;
  return {
    ...models,
    ...Object.fromEntries(CHAT_MODELS.map((id) => [id, { ...models[id], chat: { graphCapture: true } }])),
  };
}

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

/** The `createVaani` download policy of the Settings choices; the demo asks with the browser's own dialog. */
export function fitOf(settings: DemoSettings): FitOptions {
  const mb = Number(settings.maxDownloadMB);
  return {
    metered: settings.metered,
    tier: settings.tier,
    ...(settings.maxDownloadMB.trim() && Number.isFinite(mb) && mb >= 0 ? { maxDownloadBytes: mb * 1e6 } : {}),
    confirm: (plan) =>
      window.confirm(
        `Download ${plan.consent.size ?? 'a model of unknown size'} for ${plan.model}?` +
          `${plan.consent.time ? ` ${plan.consent.time} on this connection.` : ''}\n\n${plan.consent.reason}` +
          `${plan.consent.remote ? '\n\nCancel uses the server.' : ''}`,
      ),
  };
}
