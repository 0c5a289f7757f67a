import type { Services } from '../../http/dispatch';
import { runData } from '../../_data';

/** GET /files/{file_id}/content: the bytes as uploaded, with their media type. */
export const GET = (ctx: Services, request: Request, path: string, { file_id: id }: Record<string, string>) =>
  runData(ctx, request, path, new Uint8Array(), async (data) => {
    const { file, bytes } = await data.fileContent(id!);
    return new Response(bytes as Uint8Array<ArrayBuffer>, {
      headers: {
        'content-type': file.type || 'application/octet-stream',
        'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
      },
    });
  });
