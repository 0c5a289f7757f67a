import type { FileSpec } from './types';

/** The file `vaani pull` writes beside a model's files: what the folder holds, with sizes and SHA-256. */
export const FOLDER_MANIFEST = 'vaani-manifest.json';

export interface FolderManifest {
  /** Format version. */
  vaani: 1;
  /** The id the files were pulled for (a catalogue id such as 'chat-v2', or a voice's weights key). */
  model: string;
  /** Where they came from. */
  source: { host: string; repo: string; revision: string };
  /** The dtypes pulled, e.g. ['q8']. */
  dtypes: string[];
  /** Every file in the folder the engine reads, path relative to the folder. */
  files: Required<Pick<FileSpec, 'name' | 'size' | 'sha256'>>[];
}

/** A hub URL (`…/resolve/{revision}/`) is listed by the hub; any other base is a folder, which may carry a manifest. */
export const isFolderBase = (base: string) => !/\/resolve\/[^/]+\/$/.test(base);

/** Parses a manifest, or says what is wrong with it. */
export function parseFolderManifest(text: string, where: string): FolderManifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${where} is not JSON.`);
  }
  const manifest = value as Partial<FolderManifest>;
  const fileOk = (file: unknown) => {
    const f = file as FileSpec;
    return typeof f?.name === 'string' && Number.isSafeInteger(f.size) && /^[0-9a-f]{64}$/.test(f.sha256 ?? '');
  };
  if (manifest?.vaani !== 1 || !Array.isArray(manifest.files) || !manifest.files.every(fileOk))
    throw new Error(`${where} is not a vaani manifest (version 1, files with name, size and sha256).`);
  return manifest as FolderManifest;
}

/** The `vaani pull` command that fills a folder with a model's files. */
export const pullCommand = (model: string) => `npx vaani pull ${model} --to public/models`;

/** Says which file a folder lacks, which files it should hold (from its manifest), and how to get them. */
export function missingFilesMessage(base: string, file: string, listed: string[] | undefined, pull?: string) {
  const others = listed?.filter((name) => name !== file);
  const what = !listed
    ? ` (and no ${FOLDER_MANIFEST} listing the model's files)`
    : others?.length
      ? `, which its ${FOLDER_MANIFEST} lists with ${others.join(', ')}`
      : `, which its ${FOLDER_MANIFEST} does not list`;
  const fix = pull ? ` Fetch the model's files into the folder your site serves there with \`${pull}\`.` : '';
  return `The folder ${base} has no ${file}${what}.${fix}`;
}
