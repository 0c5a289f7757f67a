/** `Content-Range: bytes start-end/total` → its parts; undefined when absent or unreadable. */
export function parseContentRange(
  header: string | null,
): { start: number; end: number; total: number | undefined } | undefined {
  const match = header?.match(/^bytes\s+(\d+)-(\d+)\/(\d+|\*)$/i);
  if (!match) return undefined;
  return { start: Number(match[1]), end: Number(match[2]), total: match[3] === '*' ? undefined : Number(match[3]) };
}

/** The full file size a response announces: the Content-Range total, else Content-Length of an unencoded 200. */
export function announcedSize(status: number, headers: Headers): number | undefined {
  if (status === 206) return parseContentRange(headers.get('content-range'))?.total;
  const encoded = headers.get('content-encoding');
  const length = headers.get('content-length');
  if ((encoded && encoded !== 'identity') || length === null) return undefined;
  const size = Number(length);
  return Number.isSafeInteger(size) && size >= 0 ? size : undefined;
}
