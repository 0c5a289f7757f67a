import { defineConfig } from '@playwright/test';

const port = Number(process.env.VAANI_TEST_PORT ?? 5174);

export default defineConfig({
  testDir: 'test/browser',
  timeout: 120_000,
  globalSetup: './test/browser/global-setup.ts',
  // Two workers on the 2-core machine: spec files spread over both; the tests in one file run in order.
  fullyParallel: false,
  workers: 2,
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
