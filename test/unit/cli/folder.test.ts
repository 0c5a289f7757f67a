import { expect, it } from 'vitest';
import { DEFAULT_TO } from '../../../src/cli/main';

it('the demo serves the folder `vaani pull` writes to by default', async () => {
  const set = process.env.VAANI_MODELS_DIR;
  delete process.env.VAANI_MODELS_DIR;
  try {
    const { modelsFolder } = await import('../../../vite.demo.config.ts');
    expect(modelsFolder).toBe(DEFAULT_TO);
  } finally {
    if (set !== undefined) process.env.VAANI_MODELS_DIR = set;
  }
});
