/** What the weight store and the engines that load weights agree on: file lists and loaders. */

/** One file a model needs. `size` and `sha256` are checked when given. */
export interface FileSpec {
  name: string;
  size?: number;
  /** Lower-case hex SHA-256 of the whole file. */
  sha256?: string;
  /** A file the model works without (e.g. generation_config.json); a 404 is not an error. */
  optional?: boolean;
}

/** Where a model's files are and which files it needs. */
export interface ModelFiles {
  base: string;
  files: FileSpec[];
}

/** How far one file's load has come. */
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
