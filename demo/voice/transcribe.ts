import type { Service } from '../service';
import { byId, describeError, el, formatBytes, say } from '../ui';
import { SHRUTI_MODELS } from '../vaani';
import type { Clip } from './clip';

const ENGINE_NAMES: Record<string, string> = {
  whisper: 'Whisper',
  'indic-conformer': 'IndicConformer',
  shruti: 'Shruti',
};

/** The clip → text: /v1/audio/transcriptions or /v1/audio/translations through the openai SDK. */
export function mountTranscribe(service: Service, clip: Clip): void {
  const button = byId<HTMLButtonElement>('transcribe-go');
  const task = byId<HTMLSelectElement>('transcribe-task');
  const language = byId<HTMLInputElement>('transcribe-language');
  const engine = byId<HTMLSelectElement>('transcribe-engine');
  const chunking = byId<HTMLSelectElement>('transcribe-chunking');
  const output = byId('transcribe-output');
  const status = byId('transcribe-status');
  // The compact per-language models: choosing one sets the language and the engine; each shows its download and licence.
  const shruti = byId<HTMLSelectElement>('transcribe-shruti');
  shruti.append(el('option', { value: '' }, '— pick a language —'));
  for (const model of SHRUTI_MODELS)
    shruti.append(
      el(
        'option',
        { value: model.language },
        `${model.name} (${model.language}) · ${formatBytes(model.bytes)} · ${model.license}`,
      ),
    );
  shruti.addEventListener('change', () => {
    if (!shruti.value) return;
    language.value = shruti.value;
    engine.value = 'shruti';
  });

  button.addEventListener('click', async () => {
    const file = clip.current;
    if (!file) return;
    button.disabled = true;
    output.textContent = '';
    say(
      status,
      `${task.value === 'translate' ? 'Translating' : 'Transcribing'} (the first request loads the model)…`,
      'busy',
    );
    const started = performance.now();
    try {
      const request = {
        file,
        model: 'speech-stt-v1',
        response_format: 'verbose_json' as const,
        ...(language.value ? { language: language.value } : {}),
        // Vaani's extension field: which recogniser (auto routes India's 22 languages to IndicConformer).
        ...(engine.value !== 'auto' ? { engine: engine.value } : {}),
        // OpenAI's field: Whisper cuts the audio where Silero VAD hears pauses and skips the silence.
        ...(chunking.value ? { chunking_strategy: 'auto' as const } : {}),
      };
      const result = (
        task.value === 'translate'
          ? await service.client.audio.translations.create(request)
          : await service.client.audio.transcriptions.create(request)
      ) as {
        text: string;
        language?: string;
        segments?: unknown[];
        engine?: { name: string; language_source: string };
      };
      output.textContent = result.text;
      const by = result.engine
        ? ` by ${ENGINE_NAMES[result.engine.name] ?? result.engine.name} (${result.language}, ${result.engine.language_source})`
        : '';
      const segments = result.segments ? `, ${result.segments.length} segments` : '';
      say(status, `Done in ${((performance.now() - started) / 1000).toFixed(2)} s${by}${segments}.`, 'ok');
    } catch (error) {
      say(status, describeError(error), 'error');
    } finally {
      button.disabled = false;
    }
  });
}
