import type { Service } from '../service';
import { byId, describeError, say } from '../ui';
import { startRecording, type Recording } from './record';

/**
 * The clip the studio works on: recorded from the microphone or chosen from a file. Transcribe,
 * isolate and change-voice all read `clip.current`.
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
  const upload = byId<HTMLInputElement>('clip-file');
  const player = byId<HTMLAudioElement>('clip-player');
  const status = byId('clip-status');
  const level = byId<HTMLMeterElement>('clip-level');
  let recording: Recording | undefined;

  record.addEventListener('click', async () => {
    record.disabled = true;
    try {
      recording = await startRecording(service, (value) => (level.value = value));
      stop.disabled = false;
      say(status, `Recording (${recording.how})… press Stop when done.`, 'busy');
    } catch (error) {
      record.disabled = false;
      say(status, `Cannot record: ${describeError(error)}`, 'error');
    }
  });
  stop.addEventListener('click', async () => {
    stop.disabled = true;
    try {
      const file = await recording!.stop();
      clip.set(file);
      say(status, `Recorded ${(file.size / 1024).toFixed(0)} KB (${file.type || 'audio'}).`, 'ok');
    } catch (error) {
      say(status, `Recording failed: ${describeError(error)}`, 'error');
    } finally {
      record.disabled = false;
      level.value = 0;
      recording = undefined;
    }
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
