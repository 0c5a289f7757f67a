import { beforeAll, describe, expect, it } from 'vitest';
import { Espeak, loadEspeak } from '../../../src/worker/speech/espeak';
import { toApiError } from '../../../src/page/api/http/errors';

const never = new AbortController().signal;
const defaults = { speed: 1, stability: 0.5, style: 0.35 };
const HINDI = 'नमस्ते, आप कैसे हैं? आज मौसम बहुत अच्छा है। मैं ठीक हूँ, धन्यवाद। कल हम बाज़ार जाएँगे, और फल खरीदेंगे।';

let espeak: Espeak;
beforeAll(async () => {
  espeak = await loadEspeak('@echogarden/espeak-ng-emscripten');
});

/** The engine's own logic in node; pitch, voices and parameters are measured in Chromium (test/browser/speech.spec.ts). */
describe('eSpeak-NG engine (node)', { timeout: 60_000 }, () => {
  it('refuses a voice eSpeak lacks instead of keeping the previous one', async () => {
    await espeak.speak('hi+f3', 'नमस्ते', defaults, never);
    const error = await espeak.speak('sa+f3', 'नमः', defaults, never).catch((e: unknown) => e);
    expect(toApiError(error)).toMatchObject({ status: 400, code: 'voice_unavailable' });
  });

  it('speaks slower and faster with speed', async () => {
    const duration = async (speed: number) =>
      (await espeak.speak('hi+f3', HINDI, { ...defaults, speed }, never)).length / espeak.sampleRate;
    const [slow, normal, fast] = [await duration(0.5), await duration(1), await duration(2)];
    expect(slow / normal).toBeGreaterThan(1.6);
    expect(normal / fast).toBeGreaterThan(1.6);
  });

  it('stops between clauses when asked', async () => {
    await expect(espeak.speak('hi+f3', HINDI, defaults, AbortSignal.abort())).rejects.toMatchObject({
      code: 'cancelled',
    });
  });

  it('gives IPA phonemes without separators', () => {
    expect(espeak.phonemes('hi', 'नमस्ते')).toMatch(/^nəmˈʌsteː$/);
  });
});
