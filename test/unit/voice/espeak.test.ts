import { beforeAll, describe, expect, it } from 'vitest';
import { VOICES } from '../../../src/voice/catalogue';
import { Espeak, loadEspeak } from '../../../src/voice/tts/espeak';
import { pitchStats } from '../../browser/support/pitch';

const never = async () => false;
const defaults = { speed: 1, stability: 0.5, style: 0.35 };
const HINDI = 'नमस्ते, आप कैसे हैं? आज मौसम बहुत अच्छा है। मैं ठीक हूँ, धन्यवाद। कल हम बाज़ार जाएँगे, और फल खरीदेंगे।';

let espeak: Espeak;
beforeAll(async () => {
  espeak = await loadEspeak('@echogarden/espeak-ng-emscripten');
});

describe('eSpeak-NG engine (node)', { timeout: 120_000 }, () => {
  it('matches the catalogue median F0 of every offline voice within 10 %', async () => {
    for (const voice of VOICES) {
      if (voice.spec.engine !== 'espeak') continue;
      const samples = await espeak.speak(voice.spec.espeakVoice, voice.sampleText, defaults, never);
      const { median } = pitchStats(samples, espeak.sampleRate);
      expect(Math.abs(median / voice.medianF0 - 1), `${voice.id}: measured ${median.toFixed(1)} Hz`).toBeLessThan(0.1);
    }
  });

  it('refuses a voice eSpeak lacks instead of keeping the previous one', async () => {
    await espeak.speak('hi+f3', 'नमस्ते', defaults, never);
    await expect(espeak.speak('sa+f3', 'नमः', defaults, never)).rejects.toMatchObject({ status: 400, code: 'voice_unavailable' });
  });

  it('speaks slower and faster with speed', async () => {
    const duration = async (speed: number) => (await espeak.speak('hi+f3', HINDI, { ...defaults, speed }, never)).length / espeak.sampleRate;
    const [slow, normal, fast] = [await duration(0.5), await duration(1), await duration(2)];
    expect(slow / normal).toBeGreaterThan(1.6);
    expect(normal / fast).toBeGreaterThan(1.6);
  });

  it('widens the pitch range with style and the pitch spread with lower stability', async () => {
    const stats = async (stability: number, style: number) =>
      pitchStats(await espeak.speak('hi+f3', HINDI, { speed: 1, stability, style }, never), espeak.sampleRate);
    expect((await stats(1, 1)).rangeSemitones).toBeGreaterThan((await stats(1, 0)).rangeSemitones + 3);
    expect((await stats(0, 0.35)).spreadSemitones).toBeGreaterThan((await stats(1, 0.35)).spreadSemitones + 0.5);
  });

  it('stops between clauses when asked', async () => {
    await expect(espeak.speak('hi+f3', HINDI, defaults, async () => true)).rejects.toMatchObject({ code: 'cancelled' });
  });

  it('gives IPA phonemes without separators', () => {
    expect(espeak.phonemes('hi', 'नमस्ते')).toMatch(/^nəmˈʌsteː$/);
  });
});
