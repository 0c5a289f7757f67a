/**
 * A download's size and time in the widget's language, for the consent dialog. English keeps the
 * plan's own words ('512 MB', '~7 min'); other languages get the same rounding in the browser's
 * Intl units ('~7 मिनट', '৫১২ MB').
 */
const isEnglish = (lang: string) => /^en\b/i.test(lang) || lang === '';

const unit = (lang: string, name: string, value: number, display: 'short' | 'long') => {
  try {
    return new Intl.NumberFormat(lang, {
      style: 'unit',
      unit: name,
      unitDisplay: display,
      maximumFractionDigits: 1,
    }).format(value);
  } catch {
    // A lang the browser's Intl does not know: its English units.
    return new Intl.NumberFormat('en', {
      style: 'unit',
      unit: name,
      unitDisplay: display,
      maximumFractionDigits: 1,
    }).format(value);
  }
};

/** '512 MB' in `lang`; `english` (the plan's words) where the language is English. */
export function sizeIn(bytes: number, lang: string, english: string): string {
  if (isEnglish(lang)) return english;
  if (bytes >= 1e9) return unit(lang, 'gigabyte', Math.round(bytes / 1e8) / 10, 'short');
  if (bytes >= 1e6) return unit(lang, 'megabyte', Math.round(bytes / 1e6), 'short');
  if (bytes >= 1e3) return unit(lang, 'kilobyte', Math.round(bytes / 1e3), 'short');
  return unit(lang, 'byte', bytes, 'long');
}

/** '~7 min' in `lang` (whole seconds under 90 s, minutes under 1.5 h, else hours); `english` where English. */
export function timeIn(seconds: number, lang: string, english: string): string {
  if (isEnglish(lang)) return english;
  const words =
    seconds < 90
      ? unit(lang, 'second', seconds, 'long')
      : seconds < 5400
        ? unit(lang, 'minute', Math.round(seconds / 60), 'long')
        : unit(lang, 'hour', Math.round(seconds / 360) / 10, 'long');
  return `~${words}`;
}
