import type { Segment } from '../../protocol/audio';

function timestamp(seconds: number, separator: ',' | '.') {
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${separator}${pad(ms % 1000, 3)}`;
}

/** SubRip or WebVTT text for timed segments. */
export function subtitles(segments: Segment[], format: 'srt' | 'vtt'): string {
  const separator = format === 'srt' ? ',' : '.';
  const cues = segments.map((segment, i) => {
    const times = `${timestamp(segment.start, separator)} --> ${timestamp(segment.end, separator)}`;
    return `${format === 'srt' ? `${i + 1}\n` : ''}${times}\n${segment.text.trim()}\n`;
  });
  return format === 'srt' ? cues.join('\n') : `WEBVTT\n\n${cues.join('\n')}`;
}
