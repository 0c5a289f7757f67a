import { defineConfig } from 'vitest/config';
import { ortWasmGzipped } from './vite.config.ts';

export default defineConfig({
  plugins: [ortWasmGzipped()],
  test: {
    include: ['test/unit/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    // One module graph per worker process instead of one per file: 36 s instead of 90–117 s on 2
    // cores (most of it was re-importing onnxruntime and the fixtures' modules for each of 104
    // files). Tests that stub globals restore them in afterEach.
    isolate: false,
    // Vitest leaves one core free by default (one worker on 2 cores); the suite uses both.
    maxWorkers: '100%',
  },
});
