import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { test } from '@playwright/test';

/** Spins until its parent goes (so a crashed runner leaves nothing behind), or 15 min at most. */
const SPIN = `
  const parent = Number(process.argv[1]);
  const end = Date.now() + 900000;
  while (process.ppid === parent && Date.now() < end) for (let i = 0; i < 1e7; i++);
`;

/**
 * A CPU hog for the real-time specs: `start()` keeps all cores but one busy with a node process each,
 * spinning at normal priority (the suite's other worker keeps the last one busy), so the browser's
 * audio, VAD and engine threads compete for the CPU the way they do on a busy phone; it ends with
 * the test. Call at the top level of a spec file and start it once the page is open (the test
 * server's first transforms are not what is measured).
 */
export function cpuHog(cores = Math.max(1, availableParallelism() - 1)): { start(): void } {
  let spinners: ChildProcess[] = [];
  test.afterEach(() => {
    for (const spinner of spinners) spinner.kill('SIGKILL');
    spinners = [];
  });
  return {
    start() {
      if (spinners.length) return;
      spinners = Array.from({ length: cores }, () =>
        spawn(process.execPath, ['-e', SPIN, String(process.pid)], { stdio: 'ignore' }),
      );
    },
  };
}
