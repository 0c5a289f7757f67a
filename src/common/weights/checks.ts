import { StoreError } from './errors';

/** Bytes of a file's start that `checkStart` looks at. */
export const HEAD_BYTES = 512;

/** ModelProto field number → protobuf wire type (0 varint, 2 length-delimited). */
const MODEL_PROTO_FIELDS = new Map<number, number>([
  [1, 0],
  [2, 2],
  [3, 2],
  [4, 2],
  [5, 0],
  [6, 2],
  [7, 2],
  [8, 2],
  [14, 2],
  [20, 2],
  [21, 2],
  [25, 2],
]);

const extension = (file: string) => file.toLowerCase().match(/\.([a-z0-9_]+)$/)?.[1] ?? '';
const text = (bytes: Uint8Array) => new TextDecoder('utf-8', { fatal: false }).decode(bytes);
const leadingText = (head: Uint8Array) =>
  text(head.subarray(0, 64))
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();

function readVarint(bytes: Uint8Array, at: number): { value: number; next: number } | undefined {
  let value = 0;
  for (let i = 0; i < 10; i++) {
    if (at + i >= bytes.length) return undefined;
    const byte = bytes[at + i]!;
    value += (byte & 0x7f) * 2 ** (7 * i);
    if ((byte & 0x80) === 0) return { value, next: at + i + 1 };
  }
  return undefined;
}

/** Whether `head` starts like a serialised ONNX ModelProto (fields that exist, with their wire types). */
export function looksLikeOnnx(head: Uint8Array, size: number | undefined): boolean {
  let at = 0;
  let fields = 0;
  while (at < head.length && fields < 8) {
    const tag = readVarint(head, at);
    if (!tag) return fields > 0;
    const field = Math.floor(tag.value / 8);
    const wireType = tag.value % 8;
    if (MODEL_PROTO_FIELDS.get(field) !== wireType) return false;
    const value = readVarint(head, tag.next);
    if (!value) return fields > 0 || head.length < 16;
    if (wireType === 0) at = value.next;
    else {
      if (size !== undefined && value.next + value.value > size) return false;
      at = value.next + value.value;
    }
    fields++;
  }
  return fields > 0;
}

/** Rejects a response that is not the file: an HTML or XML page, a Git LFS pointer, a non-JSON .json, a non-ONNX .onnx. */
export function checkStart(
  file: string,
  url: string,
  head: Uint8Array,
  contentType: string | null,
  size: number | undefined,
): void {
  const ext = extension(file);
  const lead = leadingText(head);
  const reject = (what: string) => {
    throw new StoreError(
      'not_a_file',
      `${file} from ${url} is not the file: ${what}. Check the model's source (repo, revision, baseURL).`,
      file,
      url,
    );
  };
  if (ext !== 'html' && ext !== 'htm') {
    if (contentType?.toLowerCase().includes('text/html'))
      reject('the server sent an HTML page (content-type text/html)');
    if (lead.startsWith('<!doctype') || lead.startsWith('<html')) reject('the server sent an HTML page');
  }
  if (ext !== 'xml' && lead.startsWith('<?xml')) reject('the server sent an XML document');
  if (lead.startsWith('version https://git-lfs')) reject('it is a Git LFS pointer, not the stored file');
  if (ext === 'json' && head.length > 0 && !lead.startsWith('{') && !lead.startsWith('[')) reject('it is not JSON');
  if (ext === 'onnx' && !looksLikeOnnx(head, size))
    reject('it does not start like an ONNX model (protobuf ModelProto)');
}

/** Rejects a body whose length is not the expected size. */
export function checkSize(file: string, url: string, actual: number, expected: number | undefined): void {
  if (expected !== undefined && actual !== expected) {
    throw new StoreError(
      'wrong_size',
      `${file} from ${url} has the wrong size: got ${actual} bytes, expected ${expected}. It was not cached.`,
      file,
      url,
    );
  }
}

export const toHex = (bytes: ArrayBuffer) =>
  Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');

/** Rejects a file whose SHA-256 is not the expected one. */
export async function checkSha256(
  file: string,
  url: string,
  data: Blob | Uint8Array<ArrayBuffer>,
  expected: string,
): Promise<string> {
  const bytes = data instanceof Blob ? await data.arrayBuffer() : data;
  const actual = toHex(await crypto.subtle.digest('SHA-256', bytes));
  if (actual !== expected.toLowerCase()) {
    throw new StoreError(
      'bad_checksum',
      `${file} from ${url} has the wrong SHA-256: got ${actual}, expected ${expected}. It was not cached.`,
      file,
      url,
    );
  }
  return actual;
}

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

/** A 404/410 is a missing file; other statuses an HTTP error. */
export function httpFailure(name: string, url: string, status: number): StoreError {
  return status === 404 || status === 410
    ? new StoreError('file_not_found', `${name} was not found at ${url} (HTTP ${status}).`, name, url)
    : new StoreError('http_error', `Could not download ${name} from ${url}: HTTP ${status}.`, name, url);
}

/** One response body read with every check a downloaded file gets; the caller keeps the bytes. */
export interface CheckedBody {
  file: string;
  url: string;
  response: Response;
  /** The file's size when known (the spec's, else the announced one). */
  expected: number | undefined;
  /** Bytes of the file already held before this response (a resumed download); the start is checked only from 0. */
  start: number;
  /** The next piece of the body; the caller turns a read failure into its own error. */
  read(): Promise<ReadableStreamReadResult<Uint8Array>>;
  /** Keeps a piece (after the start and size checks). */
  keep(piece: Uint8Array): Promise<void> | void;
  /** Runs once the response's announced size was checked, before the first byte is read. */
  prepare?(): Promise<void>;
  /** Bytes held so far (resumed ones included). */
  onBytes(loaded: number): void;
  /** The error for a connection that ended early. */
  broken(loaded: number, reason: Error): Error;
}

/**
 * The checked read shared by the cached and the uncached paths: the start (not an HTML page, an
 * LFS pointer, a non-ONNX .onnx …), no more bytes than expected, no early end, the exact size.
 * Returns the bytes held in the end; the caller checks the SHA-256 over what it kept.
 */
export async function readChecked(body: CheckedBody): Promise<number> {
  const { file, url, response, expected } = body;
  const announced = announcedSize(response.status, response.headers);
  const contentType = response.headers.get('content-type');
  if (announced !== undefined && expected !== undefined && announced !== expected)
    checkSize(file, url, announced, expected);
  await body.prepare?.();
  let head: Uint8Array | undefined = body.start === 0 ? new Uint8Array(0) : undefined;
  let loaded = body.start;
  body.onBytes(loaded);
  for (let next = await body.read(); !next.done; next = await body.read()) {
    const piece = next.value;
    if (head) {
      head = concat(head, piece.subarray(0, HEAD_BYTES - head.length));
      if (head.length >= HEAD_BYTES) {
        checkStart(file, url, head, contentType, expected);
        head = undefined;
      }
    }
    if (expected !== undefined && loaded + piece.length > expected)
      checkSize(file, url, loaded + piece.length, expected);
    await body.keep(piece);
    loaded += piece.length;
    body.onBytes(loaded);
  }
  if (head) checkStart(file, url, head, contentType, expected);
  if (announced !== undefined && loaded < announced)
    throw body.broken(loaded, new Error(`the connection closed ${announced - loaded} bytes early`));
  checkSize(file, url, loaded, expected);
  return loaded;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
