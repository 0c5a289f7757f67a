import { wrap } from 'comlink';
import { wasmThreads } from '../../src/common/backends/ort';
import { findVoice } from '../../src/catalogue/voices';
import { createVaani } from '../../src/index';
import { loadEspeak } from '../../src/worker/speech/espeak';
import { piperClausePhonemes, piperPhonemeIds } from '../../src/worker/speech/piper-ids';
import { piperSentences, SENTENCE_SILENCE_SECONDS as PIPER_GAP } from '../../src/worker/speech/piper';
import { SENTENCE_SILENCE_SECONDS as SHERPA_GAP } from '../../src/worker/speech/sherpa-vits';
import { parseTokens, sherpaCharacterIds, sherpaVitsMeta } from '../../src/worker/speech/sherpa-tokens';
import { PIPER_PHONEME_ID_MAP, PIPER_VOICE_FILE, RASA_METADATA, tokensTxt } from '../../test/fixtures/tts-vits/vocab';
import { quantile, timePaired } from '../support/stats';
import type { VitsBare } from '../support/vits-bare.worker';
import type { Scenario, ScenarioResult } from '../types';

/** bench/prepare/tts-neural.ts writes these (served by the bench server). */
const PIPER = '/test/.fixtures/tts-vits/piper-bench/';
const SHERPA = '/test/.fixtures/tts-vits/sherpa-bench/';
const ESPEAK_BASE = '/node_modules/@echogarden/espeak-ng-emscripten/';
const RUNS = 5;
const CHARACTERS = 600;

const repeatTo = (text: string, length: number) => `${text} `.repeat(Math.ceil(length / (text.length + 1))).trim();

/** The WAV's seconds of audio (16-bit mono PCM after a 44-byte header). */
const wavSeconds = (bytes: ArrayBuffer) => (bytes.byteLength - 44) / 2 / new DataView(bytes).getUint32(24, true);

/**
 * The neural voices' real-time factor: POST /v1/audio/speech with a Piper voice (Telugu, eSpeak-NG
 * phonemes) and a sherpa-onnx VITS voice (Tamil, character tokens) against a bare onnxruntime-web
 * loop running the same graph on the same ids, one run per sentence, same threads, in its own
 * worker. The graphs are the two layouts with a decoder sized to cost time per frame (random weights).
 */
const ttsNeural: Scenario = async (env) => {
  const threads = wasmThreads();
  const ai = createVaani({
    auth: 'optional',
    backend: 'wasm',
    models: {
      'espeak-ng': { baseURL: ESPEAK_BASE },
      'piper-te-padmavathi': { baseURL: PIPER },
      'vits-rasa-13': { baseURL: SHERPA },
    },
  });
  const bare = wrap<VitsBare>(
    new Worker(new URL('../support/vits-bare.worker.ts', import.meta.url), { type: 'module' }),
  );
  const espeak = await loadEspeak(`${ESPEAK_BASE}espeak-ng.js`);

  const piperVoice = findVoice('te-IN-piper-padmavathi')!;
  const sherpaVoice = findVoice('ta-IN-rasa-female')!;
  if (piperVoice.spec.engine !== 'piper' || sherpaVoice.spec.engine !== 'sherpa-vits')
    throw new Error('the catalogue changed its neural voices');
  const cases = [
    {
      id: 'piper',
      layout: 'piper' as const,
      voice: piperVoice,
      graph: `${PIPER}${PIPER_VOICE_FILE}`,
      text: repeatTo(piperVoice.sampleText, CHARACTERS),
      ids: (text: string) =>
        piperSentences(text).map((sentence) =>
          piperPhonemeIds(
            sentence.map((clause) => piperClausePhonemes(clause, espeak.phonemes('te', clause))).join(''),
            PIPER_PHONEME_ID_MAP,
          ),
        ),
      speaker: 0,
      sampleRate: 22_050,
      gap: PIPER_GAP,
      download: piperVoice.spec.download.bytes,
    },
    {
      id: 'sherpa',
      layout: 'sherpa' as const,
      voice: sherpaVoice,
      graph: `${SHERPA}model.onnx`,
      text: repeatTo(sherpaVoice.sampleText, CHARACTERS),
      ids: (text: string) => sherpaCharacterIds(text, parseTokens(tokensTxt()), sherpaVitsMeta(RASA_METADATA)),
      speaker: sherpaVoice.spec.speaker,
      sampleRate: sherpaVoice.spec.sampleRate ?? 22_050,
      gap: SHERPA_GAP,
      download: sherpaVoice.spec.download.bytes,
    },
  ];

  const rows: ScenarioResult[] = [];
  for (const entry of cases) {
    await bare.load(entry.graph, threads);
    const sentences = entry.ids(entry.text);
    const body = JSON.stringify({
      model: 'speech-tts-v1',
      voice: entry.voice.id,
      input: entry.text,
      response_format: 'wav',
      apply_text_normalization: 'off',
    });
    let seconds = 0;
    let bareSeconds = 0;
    const viaVaani = async () => {
      const response = await ai.fetch('/v1/audio/speech', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      const bytes = await response.arrayBuffer();
      if (!response.ok) throw new Error(new TextDecoder().decode(bytes));
      seconds = wavSeconds(bytes);
    };
    const bareLoop = async () => {
      // The same audio as the route's: the sentences' samples with the runtime's silence between them.
      bareSeconds =
        (await bare.speak(entry.layout, sentences, entry.speaker)) / entry.sampleRate +
        entry.gap * (sentences.length - 1);
    };
    env.log(`${entry.id}: ${entry.text.length} characters, ${sentences.length} sentences, ${RUNS} paired runs`);
    const times = await timePaired(RUNS, viaVaani, bareLoop, true);
    const [ms, bareMs] = [quantile(times.a, 0.5), quantile(times.b, 0.5)];
    rows.push({
      id: `tts.${entry.id}.realtime`,
      metric: `POST /v1/audio/speech (${entry.voice.name}): seconds of audio per second of synthesis (1 / real-time factor), median of ${RUNS}`,
      unit: '× real time',
      value: seconds / (ms / 1000),
      baseline: {
        name: 'bare onnxruntime-web loop, same graph, same ids, same threads, in its own worker',
        value: bareSeconds / (bareMs / 1000),
      },
      higherIsBetter: true,
      notes: {
        characters: entry.text.length,
        sentences: sentences.length,
        audioSeconds: seconds,
        bareAudioSeconds: bareSeconds,
        medianMs: ms,
        bareMedianMs: bareMs,
        threads,
        voice: entry.voice.id,
        realDownloadBytes: entry.download,
      },
    });
  }
  ai.dispose();
  return rows;
};

export default ttsNeural;
