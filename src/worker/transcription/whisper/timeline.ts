/** A decoded segment placed on the audio's clock, before its times are checked. */
export interface Placed {
  start: number;
  end: number;
  text: string;
}

const ms = (seconds: number) => Math.round(seconds * 1000) / 1000;

/**
 * Makes a transcript's segments valid whatever the decoder did, in the order they were decoded:
 * times on the millisecond, 0 ≤ start < end ≤ duration, each starting no earlier than the last
 * ended. A segment left without length (inverted, or wholly before the last one's end) loses its
 * times, not its text: the text joins the next segment's (the last one's at the end). Blank
 * segments are dropped.
 */
export function placeSegments<T extends Placed>(
  segments: readonly T[],
  duration: number,
  /** Where text without any times goes when no segment has length (the whole audio by default). */
  fallback: { start: number; end: number } = { start: 0, end: duration },
): T[] {
  const out: T[] = [];
  const limit = ms(Math.max(0, duration));
  let floor = 0;
  let pending = '';
  for (const segment of segments) {
    const start = Math.min(Math.max(ms(segment.start), floor), limit);
    const end = Math.min(Math.max(ms(segment.end), start), limit);
    if (!(end > start)) {
      pending += segment.text;
      continue;
    }
    const text = pending + segment.text;
    pending = '';
    if (text.trim() === '') continue;
    out.push({ ...segment, start, end, text });
    floor = end;
  }
  if (pending.trim() !== '') {
    const last = out.at(-1);
    if (last) last.text += pending;
    else {
      const start = Math.min(Math.max(ms(fallback.start), 0), limit);
      const end = Math.min(Math.max(ms(fallback.end), start), limit);
      if (end > start) out.push({ ...segments.at(-1)!, start, end, text: pending });
    }
  }
  return out;
}
