import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../../scripts/check-folders.mjs', import.meta.url));
const made: string[] = [];
afterEach(() => made.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A src/ tree in a temp folder, from `path → contents`. */
function tree(files: Record<string, string>): string {
  const src = join(mkdtempSync(join(tmpdir(), 'check-folders-')), 'src');
  made.push(dirname(src));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(src, path)), { recursive: true });
    writeFileSync(join(src, path), text);
  }
  return src;
}

const run = (src: string, ...flags: string[]) => {
  const result = spawnSync(process.execPath, [SCRIPT, src, ...flags], { encoding: 'utf8' });
  return { status: result.status, out: result.stdout + result.stderr };
};

describe('scripts/check-folders.mjs', () => {
  it('finds a cycle made of a type-only import and a multi-line one; report mode exits 0', () => {
    const src = tree({
      'a/x.ts': "import type { Y } from '../b/y';\nexport type X = Y;\n",
      'b/y.ts': "import {\n  z,\n  type Z,\n} from '../a/z';\nexport type Y = Z;\nexport const y = z;\n",
      'a/z.ts': 'export const z = 1;\nexport type Z = number;\n',
    });
    const report = run(src);
    expect(report.status).toBe(0);
    expect(report.out).toContain('2 folders, 2 edges, 1 cycles');
    expect(report.out).toContain('import cycle between 2 folders: a, b');
    expect(report.out).toContain('a → b (type-only: a/x.ts → b/y.ts)');
    expect(report.out).toContain('b → a (runtime: b/y.ts → a/z.ts)');
    expect(run(src, '--strict').status).toBe(1);
  });

  it('follows export … from, import() and index files; a worker URL is not an import', () => {
    const worker = {
      'engines/chat.ts': [
        "new Worker(new URL('../workers/chat.worker.ts', import.meta.url));",
        "import workletURL from '../workers/chat.worker.ts?worker&url';",
        'export const url = workletURL;',
      ].join('\n'),
      'workers/chat.worker.ts': "import { url } from '../engines/chat';\nexport const back = url;\n",
    };
    const clean = run(tree(worker), '--strict');
    expect(clean.out).toContain('2 folders, 1 edges, 0 cycles');
    expect(clean.status).toBe(0);

    const cyclic = run(
      tree({
        ...worker,
        'text/index.ts': "export * from './parts';\n",
        'text/parts.ts': "export const parts = () => import('../workers/chat.worker');\n",
        'engines/chat.ts': "export { parts } from '../text';\n",
      }),
      '--strict',
    );
    expect(cyclic.status).toBe(1);
    expect(cyclic.out).toContain('import cycle between 3 folders: engines, text, workers');
  });

  it('checks the tier rules once src/page and src/worker exist', () => {
    const src = tree({
      'protocol/chat.ts': "import type { Engine } from '../page/engines/chat';\nexport type Chat = Engine;\n",
      'page/engines/chat.ts': "import type { Chat } from '../../protocol/chat';\nexport type Engine = Chat;\n",
      'worker/chat/run.ts': 'export const run = 1;\n',
      'widgets/index.ts': "import { pageInstances } from '../page/instances';\nexport const n = pageInstances;\n",
      'page/instances.ts': 'export const pageInstances = 1;\n',
    });
    const result = run(src, '--strict');
    expect(result.status).toBe(1);
    expect(result.out).toContain('protocol/chat.ts → page/engines/chat.ts: protocol/ may import only nothing in src/');
    expect(result.out).not.toContain('widgets/index.ts →');
  });
});
