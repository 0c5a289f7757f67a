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
export async function checkSha256(file: string, url: string, data: Blob, expected: string): Promise<string> {
  const actual = toHex(await crypto.subtle.digest('SHA-256', await data.arrayBuffer()));
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
