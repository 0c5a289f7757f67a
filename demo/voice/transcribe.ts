import type { Service } from '../service';
import { byId, describeError, say } from '../ui';
import type { Clip } from './clip';

/** The clip → text: /v1/audio/transcriptions or /v1/audio/translations through the openai SDK. */
export function mountTranscribe(service: Service, clip: Clip): void {
  const button = byId<HTMLButtonElement>('transcribe-go');
  const task = byId<HTMLSelectElement>('transcribe-task');
  const language = byId<HTMLInputElement>('transcribe-language');
  const output = byId('transcribe-output');
  const status = byId('transcribe-status');

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
      const request = { file, model: 'speech-stt-v1', ...(language.value ? { language: language.value } : {}) };
      const { text } =
        task.value === 'translate'
          ? await service.client.audio.translations.create(request)
          : await service.client.audio.transcriptions.create(request);
      output.textContent = text;
      say(status, `Done in ${((performance.now() - started) / 1000).toFixed(2)} s.`, 'ok');
    } catch (error) {
      say(status, describeError(error), 'error');
    } finally {
      button.disabled = false;
    }
  });
}
