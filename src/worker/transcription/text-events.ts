import type { TranscriptionEvents } from '../../protocol/transcription';

/**
 * Text streamed to the page through a comlink proxy (`stream: true`). The proxy's calls travel on
 * their own port, so the job's answer can overtake them and the route would close the stream first:
 * `delivered()` waits for the last call (each port keeps its order) before the job answers.
 */
export function textEvents(events: TranscriptionEvents | undefined) {
  let last: Promise<unknown> = Promise.resolve();
  return {
    text:
      events &&
      ((soFar: string) => {
        last = Promise.resolve(events.text(soFar) as unknown).catch(() => undefined);
      }),
    delivered: () => last,
  };
}
