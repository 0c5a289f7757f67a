/**
 * Writes the image bench models before the bench page opens: the tiny diffusers-layout fixture
 * (Euler, one step) and a copy of it with LCMScheduler (four steps), at test/.fixtures/diffusion/.
 */
import { cp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureTinyDiffusion, FIXTURE_ROOT } from '../../test/fixtures/diffusion/ensure';
import { EULER_TURBO } from '../../test/fixtures/diffusion/files';

const tiny = await ensureTinyDiffusion();
const lcm = join(FIXTURE_ROOT, 'bench-lcm');
await cp(tiny, lcm, { recursive: true });
await writeFile(
  join(lcm, 'scheduler/scheduler_config.json'),
  JSON.stringify({ ...EULER_TURBO, _class_name: 'LCMScheduler' }),
);
console.log(`image bench models at ${tiny} and ${lcm}`);
