import { aliasesOf, MODELS, type CatalogueEntry } from '../../catalogue/families';
import type { Services } from './http/dispatch';

const CREATED = 1735689600;

export function describe(ctx: Services, model: CatalogueEntry) {
  const routing = ctx.routing(model.id);
  const info = routing === 'remote-only' ? undefined : ctx.registry.info(model.id);
  const local = info?.backends ?? [];
  return {
    id: model.id,
    object: 'model',
    created: CREATED,
    owned_by: 'vaani',
    aliases: aliasesOf(model.id),
    product: model.product,
    route: `/v1${model.route}`,
    // The local engine's real context once a model has loaded; the catalogue's figure stays as context_window_remote.
    context_window: info?.contextWindow ?? model.context_window,
    context_window_remote: model.context_window,
    price: model.price,
    status: model.status,
    runs_on: { local, remote: routing !== 'local-only' && ctx.remote !== undefined },
    routing,
    ...(info?.languages ? { languages: info.languages } : {}),
    ...(info?.languageEngines ? { language_engines: info.languageEngines } : {}),
  };
}

/** GET /models */
export const GET = async (ctx: Services) =>
  Response.json({ object: 'list', data: MODELS.map((model) => describe(ctx, model)) });
