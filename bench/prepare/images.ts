/**
 * Writes the image bench models before the bench page opens: the tiny diffusers-layout fixture
 * (Euler, one step) and its LCMScheduler copy (four steps), at test/.fixtures/diffusion/.
 */
import { ensureLcmDiffusion, ensureTinyDiffusion } from '../../test/fixtures/diffusion/ensure';

console.log(`image bench models at ${await ensureTinyDiffusion()} and ${await ensureLcmDiffusion()}`);
