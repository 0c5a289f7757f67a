import './fonts';
import { mountAgents } from './agents';
import { mountChat } from './chat';
import { mountCode } from './code';
import { mountData } from './data';
import { mountImages } from './images';
import { mountMemory } from './memory';
import { mountModels } from './models';
import { Service } from './service';
import { loadSettings } from './settings';
import { mountSettings } from './settings-tab';
import { byId, describeError, formatBytes, say } from './ui';
import type { ModelProgress } from './vaani';
import { Clip, mountClip } from './voice/clip';
import { mountSpeech } from './voice/speech';
import { mountTranscribe } from './voice/transcribe';
import { mountTransform } from './voice/transform';
import { mountWidgets } from './widgets';

const TABS = ['chat', 'voice', 'images', 'code', 'agents', 'memory', 'data', 'models', 'widgets', 'settings'];

function showTab() {
  const current = TABS.includes(location.hash.slice(1)) ? location.hash.slice(1) : 'chat';
  for (const tab of TABS) {
    byId(`tab-${tab}`).hidden = tab !== current;
    document.querySelector(`nav a[href="#${tab}"]`)?.classList.toggle('active', tab === current);
  }
}

/** Any model download, from any tab or worker, shows in the header. */
function watchDownloads(service: Service) {
  const line = byId('downloads');
  const onProgress = (event: Event) => {
    const progress = (event as CustomEvent<ModelProgress>).detail;
    const done = progress.fraction !== undefined && progress.fraction >= 1;
    line.textContent = done
      ? ''
      : `Downloading ${progress.model}: ${formatBytes(progress.loaded)} of ${formatBytes(progress.total)}`;
  };
  let watched: EventTarget | undefined;
  service.addEventListener('change', () => {
    watched?.removeEventListener('progress', onProgress);
    watched = service.ai.models;
    watched.addEventListener('progress', onProgress);
  });
}

async function webGpuState(): Promise<string> {
  if (!('gpu' in navigator)) return 'no WebGPU in this browser';
  const adapter = await navigator.gpu.requestAdapter().catch(() => null);
  if (!adapter) return 'WebGPU API but no adapter (WASM only)';
  if (adapter.info?.isFallbackAdapter) return 'a software WebGPU adapter (auto runs WASM)';
  return `WebGPU adapter${adapter.features.has('shader-f16') ? ' with shader-f16' : ''}`;
}

async function main() {
  const service = new Service();
  const clip = new Clip();
  const isolation = crossOriginIsolated
    ? 'cross-origin isolated (WASM threads on)'
    : 'not cross-origin isolated (single-threaded WASM)';
  let webgpu = 'looking for a WebGPU adapter…';
  const environment = () => {
    const sharing = service.ai?.shared ? 'one engine per model for all this site’s tabs' : 'engines in this tab only';
    byId('environment').textContent = `${isolation} · ${sharing} · ${service.worker} · ${webgpu}`;
  };
  environment();
  // The API alone is not a GPU: say WebGPU only when an adapter answers, as the runtimes will ask.
  void webGpuState().then((state) => {
    webgpu = state;
    environment();
  });
  service.addEventListener('change', environment);
  service.addEventListener('change', () => {
    say(byId('source'), service.source.reason, service.source.mode === 'folder' ? 'info' : 'ok');
    byId('plugins').textContent = service.plugins.length
      ? `Optional (L)GPL plug-ins served: ${service.plugins.join(', ')}.`
      : 'No GPL plug-ins served (install @echogarden/espeak-ng-emscripten for the offline voices).';
  });
  watchDownloads(service);
  mountChat(service);
  mountSpeech(service);
  mountClip(service, clip);
  mountTranscribe(service, clip);
  mountTransform(service, clip);
  mountImages(service);
  mountCode(service);
  mountAgents(service);
  mountMemory(service);
  mountData(service);
  mountModels(service);
  mountWidgets(service);
  mountSettings(service);
  addEventListener('hashchange', showTab);
  showTab();
  say(byId('source'), 'Looking for a model hub…', 'busy');
  await service.start(loadSettings());
  document.body.dataset.ready = 'true';
}

main().catch((error) => say(byId('source'), `The demo could not start: ${describeError(error)}`, 'error'));
