import * as v from 'valibot';
import { decodeText, DocumentError, formatOf } from '../../common/documents';
import type { FilePurpose } from '../../protocol/data';
import { parse, readForm } from './http/body';
import type { Services } from './http/dispatch';
import { badRequest } from './http/errors';
import { listParams, runData } from './_data';
import { PURPOSES } from './_data-schema';
import { listOf } from './http/list';

const formSchema = v.object({
  file: v.instance(File, "must be a file part ('file')"),
  purpose: v.picklist(PURPOSES, `must be one of ${PURPOSES.join(', ')}`),
});

/** Purposes whose files are meant for vector stores: their type is checked at upload. */
const READABLE = new Set<FilePurpose>(['assistants', 'user_data']);

/** A file meant for search must be of a type Vaani reads: 400 naming why not (a corrupt PDF fails at ingestion). */
function requireReadable(name: string, type: string, bytes: Uint8Array) {
  if (!bytes.length) throw badRequest(`The file '${name}' is empty.`, 'file', 'invalid_file');
  try {
    if (formatOf(name, type, bytes) !== 'pdf') decodeText(bytes, name);
  } catch (error) {
    if (error instanceof DocumentError) throw badRequest(error.message, 'file', error.code);
    throw error;
  }
}

/** POST /files: a multipart upload (`file`, `purpose`), kept in IndexedDB. */
export async function POST(ctx: Services, request: Request, path: string): Promise<Response> {
  const { value, raw } = await readForm(request);
  const { file, purpose } = parse(formSchema, value);
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (READABLE.has(purpose)) requireReadable(file.name, file.type, bytes);
  return runData(ctx, request, path, raw, (data) =>
    data.putFile(
      {
        object: 'file',
        bytes: bytes.length,
        filename: file.name || 'upload',
        purpose,
        status: 'processed',
        expires_at: null,
        status_details: null,
        type: file.type,
      },
      bytes,
    ),
  );
}

/** GET /files */
export const GET = (ctx: Services, request: Request, path: string) => {
  const { filter: _filter, ...params } = listParams(request);
  return runData(ctx, request, path, new Uint8Array(), async (data) => listOf(await data.listFiles(params)));
};
