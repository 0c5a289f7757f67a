import { createRequire } from 'node:module';
import type { default as SrtValidator } from 'srt-validator';
import type { WebVTTParser as Parser } from 'webvtt-parser';

// Both are CommonJS; required so that vitest and Playwright's loader see the same exports.
const require = createRequire(import.meta.url);
const srtValidator = (require('srt-validator') as { default: typeof SrtValidator }).default;
const { WebVTTParser } = require('webvtt-parser') as { WebVTTParser: typeof Parser };

export interface Cue {
  start: number;
  end: number;
  text: string;
}

/** Validates SubRip text with srt-validator (numbering, time format, start < end, order) and returns its cues. */
export function checkSrt(text: string): Cue[] {
  if (text === '') return [];
  const errors = srtValidator(text);
  if (errors.length) throw new Error(`invalid SRT: ${JSON.stringify(errors.slice(0, 3))}\n${text.slice(0, 400)}`);
  const blocks = text.trim() ? text.trim().split(/\n\n+/) : [];
  return blocks.map((block, i) => {
    const [number, times, ...lines] = block.split('\n');
    if (Number(number) !== i + 1) throw new Error(`SRT cue ${i + 1} is numbered ${number}`);
    const [start, end] = times!.split(' --> ').map(seconds);
    return { start: start!, end: end!, text: lines.join('\n') };
  });
}

/** Parses WebVTT with the W3C-spec parser webvtt-parser (strict mode: any error fails) and returns its cues. */
export function checkVtt(text: string): Cue[] {
  const { cues, errors } = new WebVTTParser().parse(text);
  if (errors.length) throw new Error(`invalid WebVTT: ${JSON.stringify(errors.slice(0, 3))}\n${text.slice(0, 400)}`);
  return cues.map((cue: { startTime: number; endTime: number; text: string }) => ({
    start: cue.startTime,
    end: cue.endTime,
    text: cue.text,
  }));
}

/** Cues in order, each with text and length, none overlapping the last, all inside [0, duration]. */
export function checkTimeline(cues: Cue[], duration: number): void {
  let last = 0;
  for (const [i, cue] of cues.entries()) {
    if (!(cue.start >= last && cue.end > cue.start && cue.end <= duration + 0.001 && cue.text.trim()))
      throw new Error(`cue ${i + 1} breaks the timeline: ${JSON.stringify(cue)} after ${last} (duration ${duration})`);
    last = cue.end;
  }
}

function seconds(stamp: string): number {
  const [h, m, rest] = stamp.split(':');
  return Number(h) * 3600 + Number(m) * 60 + Number(rest!.replace(',', '.'));
}
