import { defineConfig } from '@playwright/test';

const port = Number(process.env.VAANI_TEST_PORT ?? 5174);

export default defineConfig({
  testDir: 'test/browser',
  timeout: 120_000,
  fullyParallel: false,
  workers: 1,
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
