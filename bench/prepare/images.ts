/**
 * Writes the image bench models before the bench page opens, at test/.fixtures/diffusion/: the
 * tiny diffusers-layout fixture (Euler, one step) and its LCMScheduler copy (four steps), and the
 * same layout at 512×512 (64×64 latents, BENCH_512_DIMS) with its LCM copy.
 */
import { ensureBench512Diffusion, ensureLcmDiffusion, ensureTinyDiffusion } from '../../test/fixtures/diffusion/ensure';

for (const dir of [
  await ensureTinyDiffusion(),
  await ensureLcmDiffusion(),
  await ensureBench512Diffusion(),
  await ensureLcmDiffusion('bench-512'),
])
  console.log(`image bench model at ${dir}`);
