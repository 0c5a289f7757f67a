import type { ModelInfo } from './api';
import { mountImport } from './import';
import { loadVoices } from './voice/voices';
import type { Service } from './service';
import { byId, describeError, el, formatBytes, say } from './ui';
import type { ModelProgress } from './vaani';

const kilo = (tokens: number) => (tokens < 1024 ? `${tokens}` : `${Math.round(tokens / 1024)}K`);
/** The context the engine here reported once loaded; before that, the catalogue's figure is the remote's. */
const formatContext = (model: ModelInfo) => {
  if (model.context_window === null) return '—';
  if (model.context_window !== model.context_window_remote) return `${kilo(model.context_window)} here`;
  return model.runs_on.local.length
    ? `${kilo(model.context_window)} remote · here once loaded`
    : kilo(model.context_window);
};
const formatPrice = ({ amount, per }: ModelInfo['price']) =>
  amount === null ? `billed per ${per}` : `₹${amount} / ${per}`;
const formatRate = (progress: ModelProgress) =>
  progress.fraction === 1
    ? `done · ${formatBytes(progress.total ?? progress.loaded)}`
    : `${formatBytes(progress.loaded)} of ${formatBytes(progress.total)} · ${formatBytes(progress.rate)}/s${progress.eta !== undefined ? ` · ${Math.ceil(progress.eta)} s left` : ''}`;

/** The Models tab: GET /v1/models with cache state, downloads with progress bars, cache usage. */
export function mountModels(service: Service): void {
  const body = byId('models-body');
  const status = byId('models-status');
  const usage = byId('models-usage');
  const loads = new Map<string, AbortController>();
  const offerImport = mountImport(service, () => refresh());

  async function showUsage() {
    const cached = await service.ai.models.cached();
    const bytes = cached.reduce((sum, model) => sum + model.bytes, 0);
    const estimate = await navigator.storage?.estimate?.();
    usage.textContent =
      `Cache: ${formatBytes(bytes)} in ${cached.length} model${cached.length === 1 ? '' : 's'}` +
      (estimate?.quota
        ? ` · this site uses ${formatBytes(estimate.usage)} of ${formatBytes(estimate.quota)} allowed`
        : '');
  }

  function row(model: ModelInfo) {
    const cache = el('td', { className: 'cache', textContent: '…' });
    const bar = el('progress', { max: 1, value: 0, hidden: true });
    const detail = el('small');
    const download = el('button', { textContent: 'Download', type: 'button' });
    const cancel = el('button', { textContent: 'Cancel', type: 'button', hidden: true });
    const remove = el('button', { textContent: 'Delete', type: 'button' });
    const places = [...model.runs_on.local, ...(model.runs_on.remote ? ['remote'] : [])];
    const state = model.status !== 'available' ? 'coming soon' : places.length ? 'available' : 'not in this build';
    const tr = el(
      'tr',
      { dataset: { model: model.id } },
      el('td', { textContent: model.id }),
      el('td', { textContent: model.product }),
      el('td', { textContent: formatContext(model) }),
      el('td', { textContent: formatPrice(model.price) }),
      el('td', { textContent: state }),
      el('td', { textContent: places.join(', ') || '—' }),
      cache,
      el('td', {}, download, cancel, remove, bar, detail),
    );

    const refresh = async () => {
      if (service.source.missing.includes(model.id)) {
        // Not in the folder: imported from disk, or say how to get it — without probing for files that are not there.
        const imported = (await service.ai.models.cached()).find((cached) => cached.id === model.id);
        cache.textContent = imported
          ? `imported · ${formatBytes(imported.bytes)}`
          : `not in the folder: npx vaani pull ${model.id} --to public/models`;
        remove.disabled = !imported;
        return;
      }
      try {
        const state = await service.ai.models.status(model.id);
        cache.textContent = `${state.state} · ${formatBytes(state.bytes)}${state.total ? ` of ${formatBytes(state.total)}` : ''}`;
        download.disabled = state.state === 'cached';
        remove.disabled = state.bytes === 0;
      } catch (error) {
        // No files to download: nothing to do. Files out of reach: Download stays, and says why when pressed.
        const unknown = (error as { code?: string }).code === 'unknown_model';
        cache.textContent = unknown ? '— (no files to download)' : `not checked: ${describeError(error)}`;
        download.disabled = unknown;
        remove.disabled = true;
      }
    };
    download.addEventListener('click', async () => {
      const stop = new AbortController();
      loads.set(model.id, stop);
      download.disabled = true;
      cancel.hidden = bar.hidden = false;
      try {
        await service.ai.models.load(model.id, {
          signal: stop.signal,
          onProgress: (progress) => {
            bar.value = progress.fraction ?? 0;
            detail.textContent = formatRate(progress);
          },
        });
        bar.value = 1;
        detail.textContent = 'done';
        say(status, `${model.id} is cached: it loads offline from now on.`, 'ok');
      } catch (error) {
        say(status, `${model.id}: ${describeError(error)}`, stop.signal.aborted ? 'info' : 'error');
      } finally {
        loads.delete(model.id);
        cancel.hidden = true;
        await refresh();
        await showUsage();
      }
    });
    cancel.addEventListener('click', () => loads.get(model.id)?.abort());
    remove.addEventListener('click', async () => {
      await service.ai.models.delete(model.id);
      bar.hidden = true;
      detail.textContent = '';
      say(status, `Deleted ${model.id}'s cached files.`, 'ok');
      await refresh();
      await showUsage();
    });
    void refresh();
    return tr;
  }

  /** The neural voices' weights, a model each (Kokoro, MMS): downloadable here like the catalogue's. */
  async function neuralVoiceModels(): Promise<ModelInfo[]> {
    const { voices } = await loadVoices(service).catch(() => ({ voices: [] }));
    const ids = [...new Set(voices.flatMap((voice) => (voice.weights ? [voice.weights] : [])))];
    return ids.map((id) => ({
      id,
      product: 'voice (neural voices)',
      context_window: null,
      context_window_remote: null,
      price: { currency: 'INR', amount: null, per: 'character' },
      status: 'available',
      runs_on: { local: ['wasm'], remote: false },
      routing: 'local-only',
    }));
  }

  async function refresh() {
    say(status, 'Listing models…', 'busy');
    try {
      const { data } = await service.client.models.list();
      const models = [...(data as unknown as ModelInfo[]), ...(await neuralVoiceModels())];
      body.replaceChildren(...models.map(row));
      offerImport(models.filter((model) => model.runs_on.local.length).map((model) => model.id));
      // Where files come from is said once, at the top of the page.
      say(status, `${data.length} models.`, 'ok');
      await showUsage();
    } catch (error) {
      say(status, `Could not list models: ${describeError(error)}`, 'error');
    }
  }

  byId('models-clear').addEventListener('click', async () => {
    await service.ai.models.clear();
    await refresh();
  });
  service.addEventListener('change', () => void refresh());
}
