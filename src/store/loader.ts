export interface Progress {
  file: string;
  loaded: number;
  total: number | undefined;
}

export interface LoadOptions {
  signal?: AbortSignal;
  onProgress?(progress: Progress): void;
}

/** Where an engine gets a model's files from; runs inside the engine's worker. */
export interface FileLoader {
  /** The file's bytes; rejects naming the file and URL when it cannot be had. */
  load(file: string, options?: LoadOptions): Promise<Uint8Array>;
  /** Whether the source has the file (for optional files such as generation_config.json). */
  has(file: string, options?: LoadOptions): Promise<boolean>;
}

/** A loader that fetches files under `base` with no cache. */
export function fetchLoader(base: string): FileLoader {
  const url = (file: string) => new URL(file, base).href;
  return {
    async load(file, options = {}) {
      const response = await fetch(url(file), { signal: options.signal });
      if (!response.ok) throw new Error(`Could not load ${file} from ${url(file)}: HTTP ${response.status}.`);
      const bytes = new Uint8Array(await response.arrayBuffer());
      options.onProgress?.({ file, loaded: bytes.byteLength, total: bytes.byteLength });
      return bytes;
    },
    async has(file, options = {}) {
      const response = await fetch(url(file), { method: 'HEAD', signal: options.signal });
      return response.ok;
    },
  };
}
