export interface StopScan {
  /** Text safe to emit now. */
  text: string;
  /** Whether a stop string was found (generation ends; the stop string itself is never emitted). */
  stopped: boolean;
}

/** Finds stop strings in streamed text, holding back any tail that could be the start of one. */
export class StopStrings {
  private held = '';

  constructor(private readonly stops: readonly string[]) {}

  push(piece: string): StopScan {
    const text = this.held + piece;
    let cut = -1;
    for (const stop of this.stops) {
      const at = text.indexOf(stop);
      if (at >= 0 && (cut < 0 || at < cut)) cut = at;
    }
    if (cut >= 0) {
      this.held = '';
      return { text: text.slice(0, cut), stopped: true };
    }
    const keep = this.partialTail(text);
    this.held = text.slice(text.length - keep);
    return { text: text.slice(0, text.length - keep), stopped: false };
  }

  /** Whatever was held back, at the end of generation. */
  flush(): string {
    const rest = this.held;
    this.held = '';
    return rest;
  }

  private partialTail(text: string): number {
    let longest = 0;
    for (const stop of this.stops) {
      for (let n = Math.min(stop.length - 1, text.length); n > longest; n--) {
        if (text.endsWith(stop.slice(0, n))) {
          longest = n;
          break;
        }
      }
    }
    return longest;
  }
}
