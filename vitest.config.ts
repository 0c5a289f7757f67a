import { defineConfig } from 'vitest/config';
import { ortWasmGzipped } from './vite.config.ts';

export default defineConfig({
  plugins: [ortWasmGzipped()],
  test: { include: ['test/unit/**/*.test.ts'], environment: 'node', testTimeout: 60_000 },
});
