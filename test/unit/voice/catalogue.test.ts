import { describe, expect, it } from 'vitest';
import { findVoice, LANGUAGES, needsDownload, VOICES } from '../../../src/catalogue/voices';

const INDIAN = ['hi', 'bn', 'ta', 'te', 'mr', 'gu', 'kn', 'ml', 'pa', 'or', 'as', 'ur', 'ne', 'sd', 'kok'];

describe('voice catalogue', () => {
  it('has unique, readable ids', () => {
    const ids = VOICES.map((voice) => voice.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z]{2,3}-[A-Z]{2}-[a-z0-9-]+$/);
  });

  it('has a female and a male offline voice for every bundled language and English accent', () => {
    for (const code of [
      ...INDIAN.map((c) => LANGUAGES.find((l) => l.code === c)!.languageCode),
      'en-IN',
      'en-US',
      'en-GB',
    ]) {
      for (const gender of ['female', 'male']) {
        const voice = findVoice(`${code}-${gender}-1`);
        expect(voice, `${code} ${gender}`).toBeDefined();
        expect(voice!.spec.engine).toBe('espeak');
        expect(voice!.languageCode).toBe(code);
        expect(needsDownload(voice!)).toBe(false);
      }
    }
  });

  it('gives every voice the prosody a voice changer needs', () => {
    for (const voice of VOICES) {
      expect(voice.medianF0).toBeGreaterThan(60);
      expect(voice.medianF0).toBeLessThan(400);
      expect(voice.formantScale).toBeGreaterThanOrEqual(1);
      expect(voice.formantScale).toBeLessThan(1.3);
      if (voice.gender === 'female') expect(voice.medianF0).toBeGreaterThan(170);
      if (voice.gender === 'male') expect(voice.medianF0).toBeLessThan(130);
    }
  });

  it('lists the Hindi Kokoro voices with their download size', () => {
    for (const style of ['hf_alpha', 'hf_beta', 'hm_omega', 'hm_psi']) {
      const voice = VOICES.find((v) => v.spec.engine === 'kokoro' && v.spec.styleFile === `voices/${style}.bin`);
      expect(voice, style).toBeDefined();
      expect(voice!.languageCode).toBe('hi-IN');
      expect(needsDownload(voice!)).toBe(true);
      if (voice!.spec.engine !== 'kokoro') throw new Error('unreachable');
      expect(voice!.spec.download.bytes).toBe(voice!.spec.download.files.reduce((sum, f) => sum + f.bytes, 0));
      expect(voice!.spec.download.bytes).toBeGreaterThan(90e6);
    }
  });

  it('gives every voice a licence, whether it may be used commercially, and the credit CC-BY asks for', () => {
    for (const voice of VOICES) {
      expect(voice.license, voice.id).toMatch(/^[A-Za-z0-9.+-]+$/);
      expect(typeof voice.commercial).toBe('boolean');
      if (/^CC-BY/.test(voice.license)) expect(voice.attribution, voice.id).toMatch(/\S/);
      if (/-NC-|NOASSERTION/.test(voice.license)) expect(voice.commercial, voice.id).toBe(false);
    }
    expect(findVoice('hi-IN-mms-1')).toMatchObject({ license: 'CC-BY-NC-4.0', commercial: false });
  });

  it('lists a permissive neural voice (AI4Bharat Rasa, CC-BY-4.0) for 13 scheduled languages', () => {
    const rasa = VOICES.filter((voice) => voice.spec.engine === 'sherpa-vits');
    expect(new Set(rasa.map((voice) => voice.languageCode.split('-')[0])).size).toBe(13);
    for (const voice of rasa) expect(voice).toMatchObject({ license: 'CC-BY-4.0', commercial: true });
    const sids = rasa.map((voice) => (voice.spec.engine === 'sherpa-vits' ? voice.spec.speaker : -1));
    expect(new Set(sids).size).toBe(rasa.length);
    expect(findVoice('pa-IN-rasa-male')!.spec).toMatchObject({ speaker: 16 });
  });
});
