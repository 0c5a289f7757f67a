import type { Recorder, Recording } from '../index';
import { WidgetError } from './service';

/**
 * Opens the microphone as the recorder wants it (no noise suppression or gain control, which
 * change the signal). `echoCancellation` keeps the page's own playback out (the assistant's barge-in).
 */
export async function openMicrophone(echoCancellation = false): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getUserMedia)
    throw new WidgetError('The microphone needs a secure (https) page.', 'mic_unavailable');
  try {
    return await navigator.mediaDevices.getUserMedia({
      audio: { channelCount: 1, echoCancellation, noiseSuppression: false, autoGainControl: false },
    });
  } catch (error) {
    const name = (error as DOMException).name;
    if (name === 'NotAllowedError' || name === 'SecurityError')
      throw new WidgetError('Microphone permission was denied.', 'mic_denied');
    if (name === 'NotFoundError' || name === 'OverconstrainedError')
      throw new WidgetError('No microphone was found.', 'mic_missing');
    throw new WidgetError(`The microphone could not be opened: ${(error as Error).message}`, 'mic_unavailable');
  }
}

export const closeMicrophone = (stream: MediaStream | undefined) => {
  for (const track of stream?.getTracks() ?? []) track.stop();
};

/** The recording once the recorder stops (a press, or VAD after a silence); rejects when its VAD fails. */
export const recordingOf = (recorder: Recorder) =>
  new Promise<Recording>((resolve, reject) => {
    recorder.addEventListener('stop', (event) => resolve((event as CustomEvent<Recording>).detail), { once: true });
    recorder.addEventListener('error', (event) => reject((event as CustomEvent<Error>).detail), { once: true });
  });
