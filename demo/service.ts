import OpenAI from 'openai';
import { fitOf, routingOf, withCapture, type DemoSettings } from './settings';
import { chooseSource, servedPlugins, type FileSource } from './sources';
import { createVaani, serveServiceWorker, type ServedServiceWorker, type Vaani, type VaaniOptions } from './vaani';

/**
 * The running service: `ai` (installed, so plain `fetch('/v1/…')` reaches it) and an openai SDK
 * client on top. Restarted when the settings change; listeners get a 'change' event.
 */
export class Service extends EventTarget {
  ai!: Vaani;
  client!: OpenAI;
  source!: FileSource;
  /** Plug-ins the site serves, e.g. ['espeak-ng']. */
  plugins: string[] = [];
  /** The bearer key the page sends to its own /v1 (and the remote's key when one is set). */
  key = 'demo';
  /** What the Service Worker setting did, for the environment line. */
  worker = 'Service Worker off';
  private served?: ServedServiceWorker;

  async start(settings: DemoSettings): Promise<void> {
    this.source = await chooseSource(settings.modelFiles, settings.folder);
    const plugins = await servedPlugins();
    this.plugins = Object.keys(plugins);
    const options: VaaniOptions = {
      routing: routingOf(settings.routing),
      backend: settings.backend,
      models: withCapture({ ...plugins, ...this.source.models }, settings),
      fit: fitOf(settings),
      ...(settings.remoteBaseURL
        ? { remote: { baseURL: settings.remoteBaseURL, apiKey: settings.remoteKey || undefined } }
        : {}),
    };
    this.ai?.dispose();
    this.ai = createVaani(options);
    this.ai.install();
    this.worker = await this.serveWorker(settings.serviceWorker === 'on');
    this.key = settings.remoteKey || 'demo';
    this.client = new OpenAI({
      baseURL: this.ai.baseURL,
      apiKey: this.key,
      dangerouslyAllowBrowser: true,
      maxRetries: 0,
    });
    this.dispatchEvent(new Event('change'));
  }

  /** Registers the Service Worker and serves it from this page (on), or unregisters it (off). */
  private async serveWorker(on: boolean): Promise<string> {
    this.served?.stop();
    this.served = undefined;
    if (!navigator.serviceWorker) return 'no Service Worker here (not a secure context)';
    if (!on) {
      await (await navigator.serviceWorker.getRegistration('/'))?.unregister();
      return 'Service Worker off';
    }
    try {
      // The source in dev (a module worker); a site registers the built dist/vaani-sw.js.
      const url = new URL('../src/worker/sw/vaani-sw.ts', import.meta.url);
      this.served = await serveServiceWorker(this.ai, { url, scope: '/', type: 'module', offline: true });
      return 'Service Worker answers /v1 for this site (offline copy on)';
    } catch (error) {
      return `Service Worker failed: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  /**
   * Whether this page can get a local model's files: from the hub or the folder, or imported into
   * this browser's cache when the folder lacks them.
   */
  async hasFiles(id: string): Promise<boolean> {
    if (!this.source.missing.includes(id)) return true;
    return (await this.ai.models.cached()).some((cached) => cached.id === id);
  }

  /** Says that the cache changed (a download, an import, a deletion): pickers that show files redraw. */
  filesChanged(): void {
    this.dispatchEvent(new Event('files'));
  }
}
