import type { Service } from '../service';
import { byId, describeError, say } from '../ui';
import type { LevelDetail, Recorder, Recording } from '../vaani';

/**
 * The clip the studio works on: recorded from the microphone (`ai.recorder()`) or chosen from a
 * file. Transcribe, isolate and change-voice all read `clip.current`.
 */
export class Clip extends EventTarget {
  current: File | undefined;

  set(file: File): void {
    this.current = file;
    this.dispatchEvent(new Event('change'));
  }
}

export function mountClip(service: Service, clip: Clip): void {
  const record = byId<HTMLButtonElement>('clip-record');
  const stop = byId<HTMLButtonElement>('clip-stop');
  const vad = byId<HTMLInputElement>('clip-vad');
  const upload = byId<HTMLInputElement>('clip-file');
  const player = byId<HTMLAudioElement>('clip-player');
  const status = byId('clip-status');
  const level = byId<HTMLMeterElement>('clip-level');
  let recorder: Recorder | undefined;

  const finished = ({ file, duration, speech, recordedDuration }: Recording) => {
    record.disabled = false;
    stop.disabled = true;
    level.value = 0;
    recorder = undefined;
    if (vad.checked && !speech) return say(status, `No speech heard in ${recordedDuration.toFixed(1)} s.`, 'error');
    clip.set(file);
    const kept = speech
      ? ` (speech from ${speech.start.toFixed(2)} s to ${speech.end.toFixed(2)} s of ${recordedDuration.toFixed(1)} s kept)`
      : '';
    say(status, `Recorded ${duration.toFixed(2)} s of 16 kHz audio${kept}.`, 'ok');
  };

  record.addEventListener('click', async () => {
    record.disabled = true;
    recorder = service.ai.recorder({ vad: vad.checked });
    recorder.addEventListener(
      'level',
      (event) => (level.value = Math.min(1, (event as CustomEvent<LevelDetail>).detail.rms * 4)),
    );
    recorder.addEventListener('stop', (event) => finished((event as CustomEvent<Recording>).detail));
    try {
      await recorder.start();
      stop.disabled = false;
      say(
        status,
        vad.checked ? 'Recording… it stops by itself after a silence.' : 'Recording… press Stop when done.',
        'busy',
      );
    } catch (error) {
      record.disabled = false;
      recorder = undefined;
      say(status, `Cannot record: ${describeError(error)}`, 'error');
    }
  });
  stop.addEventListener('click', () => {
    stop.disabled = true;
    recorder?.stop().catch((error: unknown) => say(status, `Recording failed: ${describeError(error)}`, 'error'));
  });
  upload.addEventListener('change', () => {
    const file = upload.files?.[0];
    if (!file) return;
    clip.set(file);
    say(status, `Using ${file.name} (${(file.size / 1024).toFixed(0)} KB).`, 'ok');
  });
  clip.addEventListener('change', () => {
    URL.revokeObjectURL(player.src);
    player.src = URL.createObjectURL(clip.current!);
    for (const button of document.querySelectorAll<HTMLButtonElement>('[data-needs-clip]')) button.disabled = false;
  });
}
