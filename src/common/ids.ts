/** `digits` random lowercase hex digits (crypto.getRandomValues). */
const randomHex = (digits: number) =>
  Array.from(crypto.getRandomValues(new Uint8Array(Math.ceil(digits / 2))), (b) => b.toString(16).padStart(2, '0'))
    .join('')
    .slice(0, digits);

/** `prefix` then `bytes` random bytes as hex: `randomId('req_')` → `req_` and 32 hex digits. */
export const randomId = (prefix: string, bytes = 16): string => `${prefix}${randomHex(bytes * 2)}`;

let sequence = 0;
/**
 * Ids that sort in creation order: `prefix`, the milliseconds (12 hex digits), a per-thread counter
 * (4), then `randomHexDigits` random hex digits.
 */
export const sortableId = (prefix: string, randomHexDigits: number): string =>
  `${prefix}${Date.now().toString(16).padStart(12, '0')}${(sequence++ & 0xffff).toString(16).padStart(4, '0')}${randomHex(randomHexDigits)}`;

/** The time now in whole seconds since the epoch, as OpenAI's `created` fields. */
export const unixSeconds = (): number => Math.floor(Date.now() / 1000);
