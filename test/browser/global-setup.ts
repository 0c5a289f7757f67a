import { ensureLcmDiffusion, ensureTinyDiffusion } from '../fixtures/diffusion/ensure';
import { ensureTinyIndicConformer } from '../fixtures/indic-conformer/ensure';
import { ensureTinyWhisper } from '../fixtures/whisper/ensure';

/**
 * Writes the fixtures that specs in several workers share before any worker starts, so each is
 * generated once and never half-written under another worker's reader. (The decoder and encoder
 * fixtures are written to a staging folder and renamed into place, so specs make those themselves.)
 */
export default async function globalSetup(): Promise<void> {
  await ensureTinyWhisper();
  await ensureTinyIndicConformer();
  await ensureTinyDiffusion();
  await ensureLcmDiffusion();
}
