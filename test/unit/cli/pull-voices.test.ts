import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTarget, planPull } from '../../../src/cli/plan';
import { startHub } from '../../support/hub-server';
import { PIPER_VOICE_FILE, piperConfig, piperGraph, sherpaGraph, tokensTxt } from '../../fixtures/tts-vits/files';

const RASA = 'MatiasLin/sherpa-onnx-vits-rasa-13';
const PIPER = 'rhasspy/piper-voices';
const bytes = (text: string) => new TextEncoder().encode(text);

let hub: Awaited<ReturnType<typeof startHub>>;
beforeAll(async () => {
  hub = await startHub({
    [RASA]: { 'model.onnx': sherpaGraph(), 'tokens.txt': bytes(tokensTxt()), 'README.md': bytes('# card') },
    [PIPER]: {
      [PIPER_VOICE_FILE]: piperGraph(),
      [`${PIPER_VOICE_FILE}.json`]: bytes(JSON.stringify(piperConfig())),
      'te/te_IN/padmavathi/medium/MODEL_CARD': bytes('card'),
      'en/en_US/amy/medium/en_US-amy-medium.onnx': piperGraph(),
    },
  });
});
afterAll(() => hub.close());

describe('vaani pull for Piper and sherpa-onnx voices', () => {
  it('plans exactly the files the runtime reads, from the catalogue, whatever the repo holds besides', async () => {
    const rasa = await planPull(parseTarget('vits-rasa-13', hub.url));
    expect(rasa.layout).toBe('sherpa-vits');
    expect(rasa.files.map((file) => file.path).sort()).toEqual(['model.onnx', 'tokens.txt']);
    const piper = await planPull(parseTarget('piper-te-padmavathi', hub.url));
    expect(piper.layout).toBe('piper');
    expect(piper.files.map((file) => file.path).sort()).toEqual([PIPER_VOICE_FILE, `${PIPER_VOICE_FILE}.json`]);
  });
});
