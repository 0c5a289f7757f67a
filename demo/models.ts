import type { ModelInfo } from './api';
import { mountFit } from './fit';
import { mountImport } from './import';
import { fetchHint } from './sources';
import { loadVoices } from './voice/voices';
import type { Service } from './service';
import { byId, describeError, el, formatBytes, say } from './ui';
import { SHARED_FILES, type CachedModel, type ModelPlan, type ModelProgress } from './vaani';

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

/** A model's plan in a line (where it would run and its download) and the reason in words. */
function formatPlan({ decision, download }: ModelPlan): [string, string] {
  if (decision.run !== 'local') return [decision.run === 'remote' ? 'remote' : 'cannot run here', decision.reason];
  const where = `here · ${decision.backend}${decision.dtype ? ` ${decision.dtype}` : ''}`;
  const size =
    decision.backend === 'builtin'
      ? 'no download'
      : download.basis === 'none'
        ? 'files per voice'
        : download.bytes === null
          ? 'size unknown'
          : download.remaining_bytes === 0
            ? `${formatBytes(download.bytes)} cached`
            : `${download.exact ? '' : '≈ '}${formatBytes(download.remaining_bytes ?? download.bytes)} to download${download.seconds ? ` · ~${download.seconds < 90 ? `${download.seconds} s` : `${Math.ceil(download.seconds / 60)} min`}` : ''}`;
  return [`${where} · ${size}`, decision.reason];
}

/** The product's tier here (small / medium / large), the model it names and why, in a line. */
function formatTier({ tier }: ModelPlan): string {
  if (!tier) return '';
  const chosen = tier.options.find((option) => option.tier === tier.tier);
  const size = chosen?.download_bytes ? ` · ≈ ${formatBytes(chosen.download_bytes)}` : '';
  const licence = chosen?.license ? ` · ${chosen.license}` : '';
  const use = tier.applied ? '' : ' (not used: this page names the files)';
  return `${tier.tier} tier: ${tier.model}${size}${licence}${use} — ${tier.reason}`;
}

/** The table's columns: each cell carries its header, shown beside it where the table is stacked (phones). */
type Column = 'Model' | 'Product' | 'Context' | 'Price' | 'Status' | 'Runs on' | 'Plan here' | 'Cache' | 'Actions';

/** A model the table lists: the catalogue's, a neural voice's weights, or anything else the cache holds. */
type Listed = ModelInfo & { extra?: boolean };

const extraModel = (id: string): Listed => ({
  id,
  product: id === 'espeak-ng' ? 'voice (eSpeak-NG plug-in)' : 'cached files',
  context_window: null,
  context_window_remote: null,
  price: { currency: 'INR', amount: null, per: 'character' },
  status: 'available',
  runs_on: { local: ['wasm'], remote: false },
  routing: 'local-only',
  extra: true,
});

interface Row {
  tr: HTMLTableRowElement;
  /** Redraws the catalogue's columns (the context changes once a model has loaded here). */
  show(model: Listed): void;
  /** Redraws the cache column and which actions apply. */
  check(cached: CachedModel[]): Promise<void>;
}

/** The Models tab: GET /v1/models with cache state, downloads with progress bars, cache usage. */
export function mountModels(service: Service): void {
  const body = byId('models-body');
  const status = byId('models-status');
  const usage = byId('models-usage');
  const loads = new Map<string, AbortController>();
  /** Kept across refreshes, so a download's bar survives a redraw. */
  let rows = new Map<string, Row>();
  const offerImport = mountImport(service, () => changed());
  const showFit = mountFit(service);

  function showUsage(cached: CachedModel[]) {
    const bytes = cached.reduce((sum, model) => sum + model.bytes, 0);
    void navigator.storage?.estimate?.().then((estimate) => {
      usage.textContent =
        `Cache: ${formatBytes(bytes)} in ${cached.length} model${cached.length === 1 ? '' : 's'}` +
        (estimate?.quota
          ? ` · this site uses ${formatBytes(estimate.usage)} of ${formatBytes(estimate.quota)} allowed`
          : '');
    });
  }

  function row(id: string): Row {
    const cell = (column: Column, ...children: (Node | string)[]) =>
      el('td', { role: 'cell', dataset: { label: column } }, ...children);
    const [product, context, price, state, places] = [
      cell('Product'),
      cell('Context'),
      cell('Price'),
      cell('Status'),
      cell('Runs on'),
    ];
    const planLine = el('span');
    const planReason = el('div', { className: 'reason' });
    const planTier = el('div', { className: 'tier' });
    const plan = cell('Plan here', planLine, planReason, planTier);
    plan.classList.add('plan');
    const cache = cell('Cache', '…');
    cache.classList.add('cache');
    const bar = el('progress', { max: 1, value: 0, hidden: true });
    const detail = el('small');
    const download = el('button', { textContent: 'Download', type: 'button' });
    const cancel = el('button', { textContent: 'Cancel', type: 'button', hidden: true });
    const remove = el('button', { textContent: 'Delete', type: 'button' });
    const tr = el(
      'tr',
      { role: 'row', dataset: { model: id } },
      cell('Model', id),
      product,
      context,
      price,
      state,
      places,
      plan,
      cache,
      cell('Actions', el('div', {}, download, cancel, remove, bar, detail)),
    );
    let extra = false;

    const show = (model: Listed) => {
      extra = model.extra ?? false;
      const where = [...model.runs_on.local, ...(model.runs_on.remote ? ['remote'] : [])];
      product.textContent = model.product;
      context.textContent = formatContext(model);
      price.textContent = extra ? '—' : formatPrice(model.price);
      state.textContent =
        model.status !== 'available'
          ? 'coming soon'
          : where.length
            ? 'available'
            : service.source.missing.includes(id)
              ? 'needs weights'
              : 'not in this build';
      places.textContent = where.join(', ') || '—';
    };

    /** What ai.plan says of it here: where it would run, its download, and why (it reads no model file). */
    const showPlan = async () => {
      if (extra) {
        planLine.textContent = '—';
        planReason.textContent = '';
        return;
      }
      // The folder lacks its files: planning would ask the folder for a manifest that is not there.
      if (service.source.missing.includes(id)) {
        planLine.textContent = '—';
        planReason.textContent = 'its files are not in this folder (see Cache)';
        return;
      }
      try {
        const planned = await service.ai.plan(id);
        [planLine.textContent, planReason.textContent] = formatPlan(planned);
        planTier.textContent = formatTier(planned);
      } catch (error) {
        // A neural voice's weights are no catalogue model: their sizes are in the voices list.
        const unknown = (error as { status?: number }).status === 404;
        [planLine.textContent, planReason.textContent] = ['—', unknown ? '' : describeError(error)];
      }
    };

    const check = async (cached: CachedModel[]) => {
      void showPlan();
      const held = cached.find((model) => model.id === id);
      download.hidden = false;
      // agent-v1 reads chat-v2's files unless it has a folder of its own: that row downloads and counts them.
      const owner = service.source.models[id] ? undefined : SHARED_FILES[id];
      if (owner && !held) {
        download.hidden = true;
        remove.disabled = true;
        cache.textContent = `reads ${owner}'s files (its row)`;
        return;
      }
      if (extra || service.source.missing.includes(id)) {
        // Nothing to download from here: imported (or cached by an engine), or how to get the files —
        // without probing for files that are not there.
        download.hidden = true;
        remove.disabled = !held;
        if (extra) cache.textContent = `cached · ${formatBytes(held?.bytes ?? 0)}`;
        else
          cache.textContent = held
            ? `imported · ${formatBytes(held.bytes)}`
            : `not in the folder: ${fetchHint(service.source, id)}, or import a folder below`;
        return;
      }
      try {
        const state = await service.ai.models.status(id);
        cache.textContent = `${state.state} · ${formatBytes(state.bytes)}${state.total ? ` of ${formatBytes(state.total)}` : ''}`;
        download.disabled = state.state === 'cached' || loads.has(id);
        remove.disabled = state.bytes === 0;
      } catch (error) {
        // No files to download: no button. Files out of reach: Download stays, and says why when pressed.
        const unknown = (error as { code?: string }).code === 'unknown_model';
        cache.textContent = unknown ? '— (no files to download)' : `not checked: ${describeError(error)}`;
        download.hidden = unknown;
        download.disabled = loads.has(id);
        remove.disabled = true;
      }
    };

    download.addEventListener('click', async () => {
      const stop = new AbortController();
      loads.set(id, stop);
      download.disabled = true;
      cancel.hidden = bar.hidden = false;
      detail.textContent = '';
      let said: Parameters<typeof say>;
      try {
        await service.ai.models.load(id, {
          signal: stop.signal,
          onProgress: (progress) => {
            bar.value = progress.fraction ?? 0;
            detail.textContent = formatRate(progress);
          },
        });
        bar.value = 1;
        detail.textContent = 'done';
        said = [status, `${id} is cached: it loads offline from now on.`, 'ok'];
      } catch (error) {
        bar.hidden = true;
        detail.textContent = stop.signal.aborted ? 'cancelled' : 'failed: see below';
        said = [status, `${id}: ${describeError(error)}`, stop.signal.aborted ? 'info' : 'error'];
      } finally {
        loads.delete(id);
        cancel.hidden = true;
      }
      await changed();
      say(...said);
    });
    cancel.addEventListener('click', () => loads.get(id)?.abort());
    remove.addEventListener('click', async () => {
      await service.ai.models.delete(id);
      bar.hidden = true;
      detail.textContent = '';
      await changed();
      say(status, `Deleted ${id}'s cached files.`, 'ok');
    });
    return { tr, show, check };
  }

  /** The neural voices' weights, a model each (Kokoro, MMS): downloadable here like the catalogue's. */
  async function neuralVoiceModels(): Promise<Listed[]> {
    const { voices } = await loadVoices(service).catch(() => ({ voices: [] }));
    const ids = [...new Set(voices.flatMap((voice) => (voice.weights ? [voice.weights] : [])))];
    return ids.map((id) => ({ ...extraModel(id), product: 'voice (neural voices)', extra: false }));
  }

  /** Lists the models (their context changes once loaded here) and redraws every row and the cache usage. */
  async function refresh() {
    say(status, 'Listing models…', 'busy');
    try {
      const cached = await service.ai.models.cached();
      const { data } = await service.client.models.list();
      const models: Listed[] = [...(data as unknown as ModelInfo[]), ...(await neuralVoiceModels())];
      // Whatever else the cache holds (e.g. the eSpeak plug-in the voices loaded) has a row, so the usage adds up.
      for (const { id } of cached) if (!models.some((model) => model.id === id)) models.push(extraModel(id));
      rows = new Map(models.map((model) => [model.id, rows.get(model.id) ?? row(model.id)]));
      for (const model of models) rows.get(model.id)!.show(model);
      body.replaceChildren(...[...rows.values()].map((shown) => shown.tr));
      offerImport(models.filter((model) => !model.extra && model.runs_on.local.length).map((model) => model.id));
      await Promise.all([...rows.values()].map((shown) => shown.check(cached)));
      await showFit();
      showUsage(cached);
      // Where files come from is said once, at the top of the page.
      say(status, `${models.length} models.`, 'ok');
    } catch (error) {
      say(status, `Could not list models: ${describeError(error)}`, 'error');
    }
  }

  /** After a download, an import or a deletion: this table, and every picker that shows where files are. */
  async function changed() {
    service.filesChanged();
    await refresh();
  }

  byId('models-clear').addEventListener('click', async () => {
    await service.ai.models.clear();
    await changed();
  });
  service.addEventListener('change', () => {
    rows = new Map();
    void refresh();
  });
  // The context a model reports once it has loaded, and what other tabs cached, show when the tab opens.
  addEventListener('hashchange', () => {
    if (location.hash === '#models' && service.ai) void refresh();
  });
}
