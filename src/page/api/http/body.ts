import * as v from 'valibot';
import { ApiError, badRequest } from './errors';
import { refuseArrays } from './json-objects';

export const LIMITS = {
  jsonBytes: 4 * 1024 * 1024,
  uploadBytes: 25 * 1024 * 1024,
} as const;

const mediaType = (request: Request) => (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();

function requireMediaType(request: Request, expected: string) {
  const got = mediaType(request);
  if (got !== expected) {
    throw new ApiError(415, `Content-Type must be ${expected}, got ${got || 'none'}.`, 'unsupported_media_type');
  }
}

async function readLimited(request: Request, limit: number, what: string): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(request.headers.get('content-length'));
  if (declared > limit) throw tooLarge(what, limit);
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge(what, limit);
    }
    parts.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  return bytes;
}

const tooLarge = (what: string, limit: number) =>
  new ApiError(413, `The ${what} is larger than the limit of ${limit / 1024 / 1024} MiB.`, 'request_too_large');

/** A body read once: its parsed value and the raw bytes, kept for forwarding to the remote. */
export interface Body<T> {
  value: T;
  raw: Uint8Array<ArrayBuffer>;
}

/** JSON text is UTF-8 (RFC 8259): other bytes are refused, not read as U+FFFD. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Reads a JSON body (415 on another content type, 413 over the limit, 400 on bad JSON). */
export async function readJson(request: Request): Promise<Body<unknown>> {
  requireMediaType(request, 'application/json');
  const raw = await readLimited(request, LIMITS.jsonBytes, 'request body');
  let text: string;
  try {
    text = UTF8.decode(raw);
  } catch {
    throw badRequest('The request body is not valid JSON: it is not UTF-8.', null, 'invalid_json');
  }
  try {
    return { value: JSON.parse(text), raw };
  } catch (error) {
    throw badRequest(`The request body is not valid JSON: ${(error as Error).message}`, null, 'invalid_json');
  }
}

/**
 * A form with no parts (only the closing boundary, as the browser sends an empty FormData): valid
 * multipart that Chromium's own parser refuses, read as no fields so the route can name what is missing.
 */
function isEmptyMultipart(request: Request, raw: Uint8Array): boolean {
  const boundary = /boundary="?([^";]+)"?/i.exec(request.headers.get('content-type') ?? '')?.[1];
  return boundary !== undefined && raw.byteLength < 200 && new TextDecoder().decode(raw).trim() === `--${boundary}--`;
}

/** A multipart field's value: text, a file, a list (`name[]`) or an object (`name[key]`). */
export type FormValue = string | File | string[] | Record<string, string>;

/** Reads a multipart body into plain fields and files. */
export async function readForm(request: Request): Promise<Body<Record<string, FormValue>>> {
  requireMediaType(request, 'multipart/form-data');
  const raw = await readLimited(request, LIMITS.uploadBytes, 'upload');
  let form: FormData;
  try {
    form = isEmptyMultipart(request, raw)
      ? new FormData()
      : await new Response(raw, { headers: { 'content-type': request.headers.get('content-type')! } }).formData();
  } catch {
    throw badRequest('The request body is not valid multipart/form-data.', null, 'invalid_multipart');
  }
  const fields: Record<string, FormValue> = {};
  for (const [key, value] of form) {
    // Array fields arrive as repeated `name[]` parts, objects as `name[key]` parts (the openai SDK's encodings).
    const member = /^([^[\]]+)\[([^[\]]+)\]$/.exec(key);
    if (key.endsWith('[]') && typeof value === 'string') {
      const list = fields[key.slice(0, -2)];
      fields[key.slice(0, -2)] = Array.isArray(list) ? [...list, value] : [value];
    } else if (member && typeof value === 'string') {
      const object = fields[member[1]!];
      const base = typeof object === 'object' && !Array.isArray(object) && !(object instanceof File) ? object : {};
      fields[member[1]!] = { ...base, [member[2]!]: value };
    } else fields[key] = value;
  }
  return { value: fields, raw };
}

function describe(issue: v.BaseIssue<unknown>): { param: string | null; message: string; code: string } {
  const path = issue.path ?? [];
  const param =
    path.reduce<string>((acc, item) => {
      const key = item.key;
      return typeof key === 'number' ? `${acc}[${key}]` : acc ? `${acc}.${String(key)}` : String(key);
    }, '') || null;
  const name = param ? `'${param}'` : 'the request';
  if (issue.kind === 'schema' && issue.received === 'undefined') {
    return { param, message: `Missing required parameter: ${name}.`, code: 'missing_required_parameter' };
  }
  const code = issue.kind === 'schema' ? 'invalid_type' : 'invalid_value';
  return { param, message: `Invalid value for ${name}: ${issue.message}`, code };
}

/**
 * Validates input against a schema; the first issue becomes a 400 naming the parameter. An array
 * where the schema has an object (any field, at any depth) is a wrong type, unlike in valibot.
 */
export function parse<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(refuseArrays(schema), input);
  if (result.success) return result.output;
  const { param, message, code } = describe(result.issues[0]);
  throw badRequest(message, param, code);
}

/** A JSON body, or `{}` when a bodiless POST (as the SDK sends some) has no content type. */
export async function readOptionalJson(request: Request): Promise<Body<unknown>> {
  if (request.method !== 'POST' || !request.headers.get('content-type')) return { value: {}, raw: new Uint8Array() };
  return readJson(request);
}
