import { stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_HOST } from '../catalogue/sources';
import { describe, HubUnreachable } from './hub';
import { parseTarget, planPull, PULLABLE, sharedWith, type Plan } from './plan';
import { formatSize } from './progress';
import { indicSnippet, pullIndicInt8 } from './indic';
import { pull, readManifestIn, snippet } from './pull';

const HELP = `vaani — model files for Vaani, served from your own site

  vaani pull <model…> [--to public/models] [--dtype q8] [--host <mirror>] [--revision <commit>]
      Downloads exactly the files the browser engine reads (per dtype), with resume and retries,
      into <to>/<model>/ with vaani-manifest.json (commit, names, sizes, SHA-256), and prints the
      createVaani({ models }) line that points at them. Default revision: the catalogue's commit.
  vaani pull speech-stt-v1 --indic --int8 [--to public/models] [--cache node_modules/.cache/vaani] [--keep-source]
      Builds IndicConformer's int8 encoder yourself: downloads AI4Bharat's own fp32 export
      (ai4bharat/indic-conformer-600m-multilingual, 2.4 GB, checked as above; HF_TOKEN if the repo
      asks you to sign in) into --cache, quantises it (onnxruntime's dynamic int8) and writes
      <to>/speech-stt-v1-indic/ with vaani-manifest.json.
  vaani ls [<model…>] [--to public/models] [--dtype q8] [--host <mirror>]
      Sizes first: what each model weighs, and whether <to> already has it.

  <model> is one of ${PULLABLE.join(', ')},
  a hub repo (owner/name), or id=owner/name (that repo for that id). agent-v1 is the chat model:
  it reads chat-v2's folder, so pulling it pulls chat-v2 (agent-v1=owner/name gives it its own).
  --host defaults to $HF_ENDPOINT or ${DEFAULT_HOST}.
`;

/** Where models go unless `--to` says: the folder a vite site (and the demo) serves at /models/. */
export const DEFAULT_TO = 'public/models';

/** Where `--indic --int8` downloads AI4Bharat's fp32 export before writing the int8 files (not a served folder). */
export const DEFAULT_CACHE = 'node_modules/.cache/vaani';

const OPTIONS = {
  to: { type: 'string', default: DEFAULT_TO },
  dtype: { type: 'string', multiple: true },
  host: { type: 'string' },
  revision: { type: 'string' },
  retries: { type: 'string' },
  indic: { type: 'boolean' },
  int8: { type: 'boolean' },
  cache: { type: 'string', default: DEFAULT_CACHE },
  'keep-source': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The ways to get a model's files when the hub cannot be reached. */
export function unreachableHelp(error: HubUnreachable, to: string, ids: string[]): string {
  const id = ids.length === 1 ? (sharedWith(ids[0]!) ?? ids[0]!.split('=')[0]!) : '<id>';
  const folder = `${join(to, id)}${sep}`;
  return [
    `${error.message} Without the hub, any of these gives a model its files:`,
    `  - a mirror of the hub: --host <url>, or set HF_ENDPOINT=<url>`,
    `  - a copy: the model's folder from a machine that has it (e.g. pulled there) copied to ${folder}`,
    `  - in the browser: ai.models.import(id, files) caches a folder picked on disk (the demo's Models → Import)`,
    '',
  ].join('\n');
}

/** `HF_TOKEN` for a gated repo: sent only to the host the command talks to. */
export function hubFetch(host: string, token = process.env.HF_TOKEN): typeof fetch {
  if (!token) return fetch;
  const origin = new URL(host).origin;
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.origin !== origin) return fetch(input, init);
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
}

async function indicCommand(ids: string[], values: Values) {
  if (ids.length !== 1 || ids[0] !== 'speech-stt-v1' || !values.int8)
    throw new Error('--indic builds one thing: `vaani pull speech-stt-v1 --indic --int8`.');
  await pullIndicInt8({
    to: values.to,
    host: host(values),
    revision: values.revision,
    cache: values.cache,
    keepSource: values['keep-source'],
    retries: values.retries === undefined ? undefined : Number(values.retries),
    fetch: hubFetch(host(values)),
  });
  process.stdout.write(
    `\nDone. Serve ${values.to} with your site and point Vaani at it:\n\n  ${indicSnippet(values.to)}\n`,
  );
}

async function pullCommand(ids: string[], values: Values) {
  if (values.indic || values.int8) return indicCommand(ids, values);
  if (!ids.length) throw new Error(`Name a model to pull: ${PULLABLE.join(', ')}, or a hub repo.`);
  const plans: Plan[] = [];
  for (const id of ids) {
    const shared = sharedWith(id);
    if (shared) process.stderr.write(`${id} reads ${shared}'s files (the same model): pulling ${shared}.\n`);
    if (shared && ids.includes(shared)) continue;
    const fetchImpl = hubFetch(host(values));
    const plan = await planPull(parseTarget(id, host(values), values.revision), values.dtype ?? [], fetchImpl);
    await pull(plan, {
      to: values.to,
      retries: values.retries === undefined ? undefined : Number(values.retries),
      fetch: fetchImpl,
    });
    plans.push(plan);
  }
  process.stdout.write(
    `\nDone. Serve ${values.to} with your site and point Vaani at it:\n\n  ${snippet(plans, values.to)}\n`,
  );
}

/** A manifest's files that are missing or have another size on disk. */
async function damaged(folder: string, files: { name: string; size: number }[]) {
  const bad: string[] = [];
  for (const file of files) {
    const size = (await stat(join(folder, ...file.name.split('/'))).catch(() => undefined))?.size;
    if (size !== file.size) bad.push(file.name);
  }
  return bad;
}

async function lsCommand(ids: string[], values: Values) {
  const rows: [string, string, string, string][] = [['SIZE', 'MODEL', 'STATE', 'SOURCE']];
  const unknown = new Set<string>();
  // A host that did not answer is not asked again: it is said once, with the ways out.
  const unreachable = new Map<string, HubUnreachable>();
  for (const id of ids.length ? ids : PULLABLE) {
    const shared = sharedWith(id);
    if (shared) {
      rows.push(['-', id, `reads ${shared}'s files`, `${join(values.to, shared)}${sep}`]);
      continue;
    }
    const target = parseTarget(id, host(values), values.revision);
    const folder = join(values.to, target.id);
    const manifest = await readManifestIn(folder).catch(() => undefined);
    if (manifest) {
      const bytes = manifest.files.reduce((sum, file) => sum + file.size, 0);
      const bad = await damaged(folder, manifest.files);
      const state = bad.length ? `incomplete: ${bad.join(', ')} missing` : `pulled (${manifest.dtypes.join(', ')})`;
      rows.push([formatSize(bytes), target.id, state, `${manifest.source.repo}@${manifest.source.revision}`]);
      continue;
    }
    try {
      if (unreachable.has(target.repo.host)) throw unreachable.get(target.repo.host);
      const plan = await planPull(target, values.dtype ?? []);
      const bytes = plan.files.reduce((sum, file) => sum + file.size, 0);
      rows.push([formatSize(bytes), target.id, `not pulled (${plan.dtypes.join(', ')})`, plan.repo.repo]);
    } catch (error) {
      if (error instanceof HubUnreachable) unreachable.set(error.host, error);
      else unknown.add(describe(error));
      rows.push(['?', target.id, 'not pulled', target.repo.repo]);
    }
  }
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  for (const row of rows)
    process.stdout.write(
      row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd() + '\n',
    );
  for (const why of unknown) process.stdout.write(`? size unknown: ${why}\n`);
  for (const error of unreachable.values())
    process.stderr.write(`\n? sizes unknown. ${unreachableHelp(error, values.to, ids.length === 1 ? ids : [])}`);
}

type Values = {
  to: string;
  dtype?: string[];
  host?: string;
  revision?: string;
  retries?: string;
  indic?: boolean;
  int8?: boolean;
  cache: string;
  'keep-source'?: boolean;
  help?: boolean;
};
const host = (values: Values) => values.host ?? process.env.HF_ENDPOINT ?? DEFAULT_HOST;

export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true });
  } catch (error) {
    process.stderr.write(`${describe(error)}\n\n${HELP}`);
    return 2;
  }
  const [command, ...ids] = parsed.positionals;
  const values = parsed.values as Values;
  if (values.help || !command || command === 'help') {
    process.stdout.write(HELP);
    return command || values.help ? 0 : 2;
  }
  try {
    if (command === 'pull') await pullCommand(ids, values);
    else if (command === 'ls') await lsCommand(ids, values);
    else {
      process.stderr.write(`Unknown command '${command}'.\n\n${HELP}`);
      return 2;
    }
    return 0;
  } catch (error) {
    const why = error instanceof HubUnreachable ? unreachableHelp(error, values.to, ids) : `${describe(error)}\n`;
    process.stderr.write(`\nvaani ${command}: ${why}`);
    return 1;
  }
}
