import { Hono, type Context as HonoContext } from 'hono';
import { agentsRun } from '../agents/run';
import { speech, speechFormats } from '../audio/speech';
import { transcriptions } from '../audio/_transcribe';
import { transform } from '../audio/_transform';
import { chatCompletions } from '../chat/completions';
import { codeCompletions } from '../code/completions';
import { completions } from '../completions';
import { embeddings } from '../embeddings';
import type { Services } from './dispatch';
import { ApiError, toApiError } from './errors';
import { imageEdits } from '../images/edits';
import { imageGenerations } from '../images/generations';
import { mountData } from '../_data-mount';
import { dataQuery } from '../data/query';
import { mountMemory } from '../memory/_mount';
import { getModel, listModels } from '../models';
import { createResponse, deleteResponse, getResponse } from '../responses';
import { listInputItems } from '../responses/{response_id}/input_items';
import { listVoices } from '../voices';

type Route = (ctx: Services, request: Request, path: string) => Promise<Response>;

const POST: Record<string, Route> = {
  '/chat/completions': chatCompletions,
  '/completions': completions,
  '/audio/speech': speech,
  '/audio/transcriptions': transcriptions('transcribe'),
  '/audio/translations': transcriptions('translate'),
  '/audio/speech-to-speech': transform('speechToSpeech'),
  '/audio/voice-changer': transform('changeVoice'),
  '/audio/isolate': transform('isolate'),
  '/images/generations': imageGenerations,
  '/images/edits': imageEdits,
  '/code/completions': codeCompletions,
  '/responses': createResponse,
  '/agents/run': agentsRun,
  '/embeddings': embeddings,
  '/data/query': dataQuery,
};

const GET: Record<string, (ctx: Services, c: HonoContext) => Promise<Response>> = {
  '/models': (ctx) => listModels(ctx),
  '/models/:id': (ctx, c) => getModel(ctx, c.req.param('id')!),
  '/voices': (ctx) => listVoices(ctx),
  '/audio/speech/formats': (ctx, c) => speechFormats(ctx, c.req.raw),
};

const BEARER = /^Bearer [^\s]+$/;

/** The /v1 router: `Request → Response` for every route of the service, mounted at `basePath`. */
export function createApp(ctx: Services, basePath: string, auth: 'required' | 'optional'): Hono {
  const app = new Hono().basePath(basePath.replace(/\/+$/, ''));

  app.onError((error) => toApiError(error).toResponse());
  app.notFound((c) =>
    new ApiError(404, `Unknown route: ${c.req.method} ${new URL(c.req.url).pathname}.`, 'unknown_route').toResponse(),
  );

  app.use('*', async (c, next) => {
    await next();
    const response = withRequestId(c.res);
    if (response === c.res) return;
    // Hono's setter wraps an assigned response in one more copy unless none is set.
    c.res = undefined;
    c.res = response;
  });

  app.use('*', async (c, next) => {
    if (auth === 'required' && !BEARER.test(c.req.header('authorization') ?? '')) {
      throw new ApiError(
        401,
        'Missing or malformed Authorization header: send "Authorization: Bearer <API_KEY>".',
        'invalid_api_key',
      );
    }
    await next();
  });

  for (const [path, route] of Object.entries(POST)) {
    app.post(path, (c) => route(ctx, c.req.raw, path));
    app.all(path, () => methodNotAllowed('POST'));
  }
  for (const [path, route] of Object.entries(GET)) {
    app.get(path, (c) => route(ctx, c));
    app.all(path, () => methodNotAllowed('GET'));
  }
  app.get('/responses/:id/input_items', (c) => listInputItems(ctx, c.req.raw, c.req.param('id')));
  app.all('/responses/:id/input_items', () => methodNotAllowed('GET'));
  app.get('/responses/:id', (c) => getResponse(ctx, c.req.param('id')));
  app.delete('/responses/:id', (c) => deleteResponse(ctx, c.req.param('id')));
  app.all('/responses/:id', () => methodNotAllowed('GET, DELETE'));
  mountMemory(app, ctx);
  mountData(app, ctx);
  return app;
}

const requestId = () =>
  `req_${Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('')}`;

/**
 * Every answer carries `x-request-id`: a forwarded one keeps the remote's, others get a fresh one,
 * set in place where the headers may change (the route's own responses). A copy, only for a
 * fetched response's immutable headers, wraps the body in one more stream that the reader pays
 * for (≈ 1.5 ms per copy for a 0.7 MB body here).
 */
function withRequestId(response: Response): Response {
  if (response.headers.has('x-request-id')) return response;
  try {
    response.headers.set('x-request-id', requestId());
    return response;
  } catch {
    const copy = new Response(response.body, response);
    copy.headers.set('x-request-id', requestId());
    return copy;
  }
}

const methodNotAllowed = (allow: string) =>
  new ApiError(405, `Method not allowed: this route accepts ${allow}.`, 'method_not_allowed', null, {
    allow,
  }).toResponse();
