import type { Segment } from '../../../protocol/transcription';

function timestamp(ms: number, separator: ',' | '.') {
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${separator}${pad(ms % 1000, 3)}`;
}

/** Cue text on non-blank lines (a blank line would end the cue), with WebVTT's markup characters escaped. */
function cueText(text: string, format: 'srt' | 'vtt'): string {
  const lines = text
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter(Boolean)
    .join('\n');
  return format === 'vtt'
    ? lines.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')
    : lines.replaceAll('-->', '->');
}

/**
 * SubRip or WebVTT text for timed segments: cues numbered from 1, in order, never going back in
 * time and never ending before they start, whatever the segments say; segments without text are left out.
 */
export function subtitles(segments: Segment[], format: 'srt' | 'vtt'): string {
  const separator = format === 'srt' ? ',' : '.';
  let floor = 0;
  const cues: string[] = [];
  for (const segment of segments) {
    const text = cueText(segment.text, format);
    if (!text) continue;
    const start = Math.max(floor, Math.round(segment.start * 1000) || 0);
    const end = Math.max(start + 1, Math.round(segment.end * 1000) || 0);
    floor = end;
    const times = `${timestamp(start, separator)} --> ${timestamp(end, separator)}`;
    cues.push(`${format === 'srt' ? `${cues.length + 1}\n` : ''}${times}\n${text}\n`);
  }
  return format === 'srt' ? cues.join('\n') : `WEBVTT\n\n${cues.join('\n')}`;
}
