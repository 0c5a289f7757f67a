import { ensureOk, getJson } from '../api';
import type { Service } from '../service';
import { byId, describeError, fillSelect, say } from '../ui';
import { loadVoices, voicePickers } from './voices';

const DEFAULT_MODEL = 'speech-tts-v1';

/** Text to speech: language and voice pickers from GET /v1/voices, speed/stability/style sliders. */
export function mountSpeech(service: Service): void {
  const text = byId<HTMLTextAreaElement>('speech-text');
  const language = byId<HTMLSelectElement>('speech-language');
  const voice = byId<HTMLSelectElement>('speech-voice');
  const model = byId<HTMLSelectElement>('speech-model');
  const format = byId<HTMLSelectElement>('speech-format');
  const player = byId<HTMLAudioElement>('speech-player');
  const download = byId<HTMLAnchorElement>('speech-download');
  const status = byId('speech-status');
  const button = byId<HTMLButtonElement>('speech-go');
  const slider = (name: string) => Number(byId<HTMLInputElement>(`speech-${name}`).value);
  // Every format the page knows a label for; the menu offers those this browser can write.
  const formats = [...format.options].map((option) => ({ value: option.value, label: option.text }));

  for (const name of ['speed', 'stability', 'style']) {
    const input = byId<HTMLInputElement>(`speech-${name}`);
    const shown = byId(`speech-${name}-value`);
    const show = () => (shown.textContent = Number(input.value).toFixed(2));
    input.addEventListener('input', show);
    show();
  }

  async function refresh() {
    try {
      const list = await loadVoices(service);
      fillSelect(
        model,
        list.models.filter((m) => m.kind === 'tts').map((m) => ({ value: m.id, label: m.id })),
      );
      if (list.models.some((m) => m.id === DEFAULT_MODEL)) model.value = DEFAULT_MODEL;
      voicePickers(language, voice, list.voices, byId<HTMLElement>('speech-credit'));
      button.disabled = list.voices.length === 0;
      const missing = list.voices.length ? await offerFormats() : [];
      say(
        status,
        list.voices.length
          ? `${list.voices.length} voices in ${language.options.length} languages.` +
              (missing.length ? ` No ${missing.join(' or ')} encoder in this browser.` : '')
          : 'No speech engine in this build: no voices to speak with.',
        list.voices.length ? 'info' : 'error',
      );
    } catch (error) {
      say(status, `Could not list voices: ${describeError(error)}`, 'error');
    }
  }

  /**
   * The format menu keeps the formats /v1/audio/speech can write here (GET /v1/audio/speech/formats:
   * the speech worker's own check); returns the labels of those it cannot.
   */
  async function offerFormats(): Promise<string[]> {
    const { data } = await getJson<{ data: string[] }>(`${service.ai.baseURL}/audio/speech/formats`, service.key);
    fillSelect(
      format,
      formats.filter((f) => data.includes(f.value)),
    );
    return formats.filter((f) => !data.includes(f.value)).map((f) => f.label);
  }

  /** No clip from an earlier request stays next to a new one's progress or error. */
  const clear = () => {
    player.pause();
    player.removeAttribute('src');
    player.load();
    URL.revokeObjectURL(download.href);
    download.removeAttribute('href');
    download.hidden = true;
  };

  button.addEventListener('click', async () => {
    say(status, `Speaking with ${voice.value}…`, 'busy');
    button.disabled = true;
    clear();
    const started = performance.now();
    try {
      const response = await ensureOk(
        await fetch(`${service.ai.baseURL}/audio/speech`, {
          method: 'POST',
          headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            model: model.value || DEFAULT_MODEL,
            voice: voice.value,
            input: text.value,
            speed: slider('speed'),
            stability: slider('stability'),
            style: slider('style'),
            response_format: format.value,
          }),
        }),
      );
      const audio = await response.blob();
      download.href = URL.createObjectURL(audio);
      download.download = `speech.${format.value}`;
      download.textContent = `Download ${format.value.toUpperCase()}`;
      download.hidden = false;
      // Raw PCM has no header a player could read: it is offered as a download only.
      player.hidden = format.value === 'pcm';
      if (!player.hidden) {
        player.src = download.href;
        await player.play().catch(() => undefined);
      }
      say(
        status,
        `Spoke ${text.value.length} characters in ${((performance.now() - started) / 1000).toFixed(2)} s (${audio.type}, ${audio.size} bytes).`,
        'ok',
      );
    } catch (error) {
      say(status, describeError(error), 'error');
    } finally {
      button.disabled = false;
    }
  });
  service.addEventListener('change', () => void refresh());
}
