import { defineConfig } from '@playwright/test';

const port = Number(process.env.VAANI_TEST_PORT ?? 5174);
/**
 * Specs that measure a recording of Chromium's fake microphone against the wall clock (durations,
 * VAD boundaries within 100 ms). The widgets and demo specs record it too but check only what was
 * heard, so they share the two workers.
 */
const REAL_TIME = /\/recorder[\w-]*\.spec\.ts$/;
/**
 * The longest spec files (2.5–4.7 min each; a file's tests run in order on one worker). Their project
 * comes first, so the workers start them first and fill in with the short files: in the
 * alphabetical order `widgets` started last and one worker idled for 3.8 min at the end.
 */
const LONG = /\/(widgets|demo|chat|share)\.spec\.ts$/;

export default defineConfig({
  testDir: 'test/browser',
  timeout: 120_000,
  globalSetup: './test/browser/global-setup.ts',
  // Two workers on the 2-core machine: spec files spread over both; the tests in one file run in order.
  fullyParallel: false,
  workers: 2,
  projects: [
    { name: 'long', testMatch: LONG },
    { name: 'parallel', testIgnore: [REAL_TIME, LONG] },
    // The recorder specs run last and one at a time, with a core to spare.
    { name: 'real-time', testMatch: REAL_TIME, dependencies: ['long', 'parallel'], workers: 1 },
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
