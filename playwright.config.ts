import { defineConfig } from '@playwright/test';

const port = Number(process.env.VAANI_TEST_PORT ?? 5174);
/**
 * Specs that measure a recording of Chromium's fake microphone against the wall clock (durations,
 * VAD boundaries within 100 ms). The widgets and demo specs record it too but check only what was
 * heard, so they share the two workers.
 */
const REAL_TIME = /\/recorder[\w-]*\.spec\.ts$/;
/**
 * Spec files the workers start first, so both finish together: the longest (a file's tests run in
 * order on one worker — in alphabetical order `widgets` started last while the other worker idled
 * for 3.8 min), and `consumer` and `csp`, whose own browser launch options gave each a worker of its
 * own after every other file had ended; `webgpu-families` (2.7 min, software WebGPU), which came last
 * in alphabetical order and ran alone at the end.
 */
const LONG = /\/(widgets|demo|chat|share|consumer|csp|webgpu-families)\.spec\.ts$/;

export default defineConfig({
  testDir: 'test/browser',
  timeout: 120_000,
  globalSetup: './test/browser/global-setup.ts',
  // Two workers on the 2-core machine: spec files spread over both; the tests in one file run in order.
  fullyParallel: false,
  workers: 2,
  projects: [
    { name: 'long', testMatch: LONG },
    // The recorder specs one at a time, beside the other worker's specs (they hold on a busy machine),
    // queued before the rest: last, they ran one after another while the other worker idled.
    { name: 'real-time', testMatch: REAL_TIME, workers: 1 },
    { name: 'parallel', testIgnore: [REAL_TIME, LONG] },
  ],
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    baseURL: `http://localhost:${port}`,
    launchOptions: { executablePath: '/usr/bin/chromium', args: ['--enable-unsafe-webgpu'] },
  },
  webServer: {
    command: 'npx vite --config vite.test.config.ts',
    url: `http://localhost:${port}/test/browser/pages/harness.html`,
    reuseExistingServer: !process.env.CI,
    timeout: 120_000,
  },
});
