import { formatBytes, RateMeter } from '../common/weights';

const BAR = 24;

export const formatSize = (bytes: number | undefined) => (bytes === undefined ? '?' : formatBytes(bytes));

/** A progress line per file: a bar on a terminal (redrawn in place), a line per 25 % elsewhere. */
export function progressLine(name: string, stream: NodeJS.WriteStream = process.stderr) {
  const meter = new RateMeter();
  const tty = Boolean(stream.isTTY);
  let lastQuarter = -1;
  let lastDraw = 0;
  return {
    update(loaded: number, total: number | undefined) {
      const now = performance.now();
      const rate = meter.sample(loaded, now);
      const fraction = total ? Math.min(1, loaded / total) : undefined;
      if (tty) {
        if (now - lastDraw < 100 && loaded !== total) return;
        lastDraw = now;
        const filled = Math.round((fraction ?? 0) * BAR);
        const eta = total && rate > 0 ? ` ${Math.ceil((total - loaded) / rate)} s left` : '';
        const bar = fraction === undefined ? '' : `[${'#'.repeat(filled)}${'.'.repeat(BAR - filled)}] `;
        stream.write(
          `\r\x1b[2K  ${bar}${name} ${formatSize(loaded)} of ${formatSize(total)} · ${formatSize(rate)}/s${eta}`,
        );
      } else if (fraction !== undefined) {
        const quarter = Math.floor(fraction * 4);
        if (quarter > lastQuarter && quarter < 4) {
          lastQuarter = quarter;
          stream.write(`  ${name} ${Math.round(fraction * 100)}% of ${formatSize(total)}\n`);
        }
      }
    },
    note(text: string) {
      stream.write(`${tty ? '\r\x1b[2K' : ''}  ${name}: ${text}\n`);
    },
    done(size: number, reused: boolean) {
      stream.write(
        `${tty ? '\r\x1b[2K' : ''}  ✓ ${name} ${formatSize(size)}${reused ? ' (already there, checked)' : ''}\n`,
      );
    },
  };
}
