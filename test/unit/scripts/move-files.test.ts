import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../../scripts/move-files.mjs', import.meta.url));
const made: string[] = [];
afterEach(() => made.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const FILES: Record<string, string> = {
  'src/a/x.ts': "import { y } from '../b/y';\nimport type { T } from './t';\nexport const x: T = y;\n",
  'src/a/t.ts': 'export type T = number;\n',
  'src/b/y.ts': "import { weights } from '../store';\nexport const y = weights;\n",
  'src/store/index.ts': 'export const weights = 1;\n',
  'src/engines/e.ts': [
    "import workletURL from '../worklets/r.worklet.ts?worker&url';",
    "export const start = () => new Worker(new URL('../workers/w.worker.ts', import.meta.url), { type: 'module' });",
    'export const worklet = workletURL;',
    '',
  ].join('\n'),
  'src/workers/w.worker.ts': "import { x } from '../a/x';\nexport const w = x;\n",
  'src/worklets/r.worklet.ts': 'export {};\n',
  'test/pages/p.html': '<script type="module">\n  import { x } from \'/src/a/x.ts\';\n</script>\n',
  'test/unit/x.test.ts': [
    "import { x } from '../../src/a/x';",
    "vi.mock('../../src/a/x');",
    "const page = '/src/store/index.ts';",
    '',
  ].join('\n'),
};
const MAP = [
  'a/x.ts\tpage/deep/x.ts',
  'a/t.ts\tprotocol/t.ts',
  'store/index.ts\tcommon/weights/index.ts',
  'workers/w.worker.ts\tworker/w/w.worker.ts',
  'worklets/r.worklet.ts\tworker/recorder/r.worklet.ts',
  'b/y.ts\t(deleted)',
  '',
].join('\n');

/** A git repository in a temp folder holding FILES, committed; and the map beside it. */
function repo(): { dir: string; map: string } {
  const dir = mkdtempSync(join(tmpdir(), 'move-files-'));
  made.push(dir);
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'pipe' });
  git('init', '-q');
  git('add', '.');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'start');
  writeFileSync(join(dir, 'map.tsv'), MAP);
  return { dir, map: join(dir, 'map.tsv') };
}

const run = (dir: string, map: string, ...flags: string[]) => {
  const result = spawnSync(process.execPath, [SCRIPT, dir, map, ...flags], { encoding: 'utf8' });
  return { status: result.status, out: result.stdout + result.stderr };
};
const read = (dir: string, path: string) => readFileSync(join(dir, path), 'utf8');

describe('scripts/move-files.mjs', () => {
  it('--dry-run counts the work and changes nothing', () => {
    const { dir, map } = repo();
    const result = run(dir, map, '--dry-run');
    expect(result.status).toBe(0);
    expect(result.out).toContain('5 files to move; 9 specifiers in 6 files to rewrite');
    expect(result.out).toContain('files the map does not name, left where they are (1):\n  engines/e.ts');
    expect(result.out).toContain('test/unit/x.test.ts: ../../src/a/x');
    expect(read(dir, 'src/a/x.ts')).toBe(FILES['src/a/x.ts']);
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' })).toBe('?? map.tsv\n');
  });

  it('moves the files with git and rewrites every specifier that reaches them', () => {
    const { dir, map } = repo();
    expect(run(dir, map).status).toBe(0);
    expect(read(dir, 'src/page/deep/x.ts')).toBe(
      "import { y } from '../../b/y';\nimport type { T } from '../../protocol/t';\nexport const x: T = y;\n",
    );
    expect(read(dir, 'src/b/y.ts')).toBe("import { weights } from '../common/weights';\nexport const y = weights;\n");
    expect(read(dir, 'src/engines/e.ts')).toBe(
      FILES['src/engines/e.ts']!.replace('../worklets/r.worklet.ts', '../worker/recorder/r.worklet.ts').replace(
        '../workers/w.worker.ts',
        '../worker/w/w.worker.ts',
      ),
    );
    expect(read(dir, 'src/worker/w/w.worker.ts')).toBe("import { x } from '../../page/deep/x';\nexport const w = x;\n");
    expect(read(dir, 'test/pages/p.html')).toContain("import { x } from '/src/page/deep/x.ts';");
    expect(read(dir, 'test/unit/x.test.ts')).toBe(
      [
        "import { x } from '../../src/page/deep/x';",
        "vi.mock('../../src/a/x');", // not an import: reported, left for a hand
        "const page = '/src/common/weights/index.ts';",
        '',
      ].join('\n'),
    );
    expect(existsSync(join(dir, 'src/a/x.ts'))).toBe(false);
    const renames = execFileSync('git', ['diff', '--cached', '-M', '--name-status'], { cwd: dir, encoding: 'utf8' });
    expect(renames).toMatch(/^R\d+\tsrc\/a\/t\.ts\tsrc\/protocol\/t\.ts$/m);
    expect(renames.split('\n').filter((line) => line.startsWith('R'))).toHaveLength(5);
  });

  it('refuses a move onto a file that exists', () => {
    const { dir, map } = repo();
    writeFileSync(map, 'a/t.ts\tb/y.ts\n');
    const result = run(dir, map);
    expect(result.status).toBe(1);
    expect(result.out).toContain('src/b/y.ts exists already');
    expect(read(dir, 'src/a/x.ts')).toBe(FILES['src/a/x.ts']);
  });
});
