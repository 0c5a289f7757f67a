/** A stretch of audio in samples, [start, end). */
export interface Span {
  start: number;
  end: number;
}

/** A window to recognise in one pass, and the speech regions in it (segments end at their pauses). */
export interface SpeechWindow extends Span {
  regions: Span[];
}

export interface WindowOptions {
  /** Samples per probability (Silero: 512 at 16 kHz). */
  frame: number;
  sampleRate: number;
  /** Longest window in seconds (IndicConformer drops words on longer continuous speech). */
  maxSeconds: number;
  /** Speech starts at this probability and continues while it stays above threshold − 0.15. */
  threshold?: number;
  /** A pause at least this long (s) ends a region. */
  minSilenceSeconds?: number;
  /** Audio kept around each region (s). */
  padSeconds?: number;
}

/**
 * Windows of at most `maxSeconds` over the speech a VAD heard: regions (hysteresis on the
 * probabilities, padded), grouped while they fit, and a region longer than a window cut at its
 * least speech-like frame in the window's second half.
 */
export function speechWindows(probabilities: Float32Array, total: number, options: WindowOptions): SpeechWindow[] {
  const { frame, sampleRate } = options;
  const threshold = options.threshold ?? 0.5;
  const minSilence = Math.ceil(((options.minSilenceSeconds ?? 0.3) * sampleRate) / frame);
  const pad = Math.round((options.padSeconds ?? 0.2) * sampleRate);
  const max = Math.floor(options.maxSeconds * sampleRate);

  const regions: Span[] = [];
  let first = -1;
  let last = -1;
  const close = () => {
    if (first < 0) return;
    const start = Math.max(0, first * frame - pad);
    const end = Math.min(total, (last + 1) * frame + pad);
    const previous = regions.at(-1);
    if (previous && start <= previous.end) previous.end = end;
    else regions.push({ start, end });
    first = -1;
  };
  for (let i = 0; i < probabilities.length; i++) {
    const p = probabilities[i]!;
    if (first < 0 ? p >= threshold : p >= threshold - 0.15) {
      if (first < 0) first = i;
      last = i;
    } else if (first >= 0 && i - last >= minSilence) close();
  }
  close();

  // Cut regions longer than a window where speech is least likely.
  const cut: Span[] = [];
  for (let region of regions) {
    while (region.end - region.start > max) {
      const from = Math.ceil((region.start + max / 2) / frame);
      const to = Math.floor((region.start + max) / frame) - 1;
      let best = to;
      for (let i = from; i <= to; i++) if ((probabilities[i] ?? 1) < (probabilities[best] ?? 1)) best = i;
      const at = Math.min(region.start + max, Math.max(region.start + 1, best * frame));
      cut.push({ start: region.start, end: at });
      region = { start: at, end: region.end };
    }
    cut.push(region);
  }

  const windows: SpeechWindow[] = [];
  for (const region of cut) {
    const current = windows.at(-1);
    if (current && region.end - current.start <= max) {
      current.end = region.end;
      current.regions.push(region);
    } else windows.push({ ...region, regions: [region] });
  }
  return windows;
}
