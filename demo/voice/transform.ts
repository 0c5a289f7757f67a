import { postForm } from '../api';
import type { Service } from '../service';
import { byId, describeError, say } from '../ui';
import type { Clip } from './clip';
import { loadVoices, voicePickers } from './voices';

const seconds = (started: number) => ((performance.now() - started) / 1000).toFixed(2);

/** Isolate (before/after players) and voice changer / speech-to-speech on the studio's clip. */
export function mountTransform(service: Service, clip: Clip): void {
  const before = byId<HTMLAudioElement>('isolate-before');
  const after = byId<HTMLAudioElement>('isolate-after');
  const isolate = byId<HTMLButtonElement>('isolate-go');
  const isolateStatus = byId('isolate-status');
  const change = byId<HTMLButtonElement>('change-go');
  const mode = byId<HTMLSelectElement>('change-mode');
  const language = byId<HTMLSelectElement>('change-language');
  const voice = byId<HTMLSelectElement>('change-voice');
  const changed = byId<HTMLAudioElement>('change-player');
  const changeStatus = byId('change-status');

  const play = (player: HTMLAudioElement, audio: Blob) => {
    URL.revokeObjectURL(player.src);
    player.src = URL.createObjectURL(audio);
  };
  /** No result of an earlier request stays beside a new one's progress or error. */
  const clear = (player: HTMLAudioElement) => {
    player.pause();
    URL.revokeObjectURL(player.src);
    player.removeAttribute('src');
    player.load();
  };
  const form = (fields: Record<string, string>) => {
    const body = new FormData();
    body.set('file', clip.current!);
    for (const [name, value] of Object.entries(fields)) body.set(name, value);
    return body;
  };

  isolate.addEventListener('click', async () => {
    isolate.disabled = true;
    play(before, clip.current!);
    clear(after);
    say(isolateStatus, 'Removing background noise…', 'busy');
    const started = performance.now();
    try {
      play(after, await postForm(`${service.ai.baseURL}/audio/isolate`, service.key, form({})));
      say(isolateStatus, `Cleaned in ${seconds(started)} s: compare before and after.`, 'ok');
    } catch (error) {
      say(isolateStatus, describeError(error), 'error');
    } finally {
      isolate.disabled = false;
    }
  });

  change.addEventListener('click', async () => {
    change.disabled = true;
    clear(changed);
    say(changeStatus, `Changing the voice to ${voice.value}…`, 'busy');
    const started = performance.now();
    const sliders =
      mode.value === 'speech-to-speech'
        ? Object.fromEntries(
            ['speed', 'stability', 'style'].map((name) => [name, byId<HTMLInputElement>(`speech-${name}`).value]),
          )
        : {};
    try {
      play(
        changed,
        await postForm(
          `${service.ai.baseURL}/audio/${mode.value}`,
          service.key,
          form({ voice: voice.value, ...sliders }),
        ),
      );
      say(changeStatus, `Done in ${seconds(started)} s.`, 'ok');
    } catch (error) {
      say(changeStatus, describeError(error), 'error');
    } finally {
      change.disabled = false;
    }
  });

  service.addEventListener('change', async () => {
    try {
      voicePickers(language, voice, (await loadVoices(service)).voices);
    } catch (error) {
      say(changeStatus, `Could not list voices: ${describeError(error)}`, 'error');
    }
  });
}
