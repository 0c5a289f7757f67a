import { aliasesOf, MODELS, type CatalogueEntry } from '../../catalogue/families';
import { preference, type Services } from './http/dispatch';
import { builtinAvailability } from '../builtin';
import { probeWebGpu } from '../../common/backends/webgpu';

const CREATED = 1735689600;

export function describe(ctx: Services, model: CatalogueEntry, builtin: string) {
  const routing = ctx.routing(model.id);
  const order = preference(routing);
  const info = order.includes('local') ? ctx.registry.info(model.id) : undefined;
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
    ...(model.builtin ? { builtin: model.builtin } : {}),
    ...(model.license
      ? {
          license: model.license,
          commercial: model.commercial,
          use_restrictions: model.use_restrictions,
          license_url: model.license_url,
        }
      : {}),
    runs_on: {
      local,
      remote: order.includes('remote') && ctx.remote !== undefined,
      ...(order.includes('builtin') ? { builtin } : {}),
    },
    routing,
    ...(info?.languages ? { languages: info.languages } : {}),
    ...(info?.languageEngines ? { language_engines: info.languageEngines } : {}),
    ...(info?.compactModels ? { compact_models: info.compactModels } : {}),
  };
}

/** GET /models */
export async function GET(ctx: Services) {
  // The adapter answers first, so runs_on.local leaves out a backend 'auto' would pass by.
  const [builtin] = await Promise.all([builtinAvailability(), probeWebGpu(), ctx.tiers?.()]);
  return Response.json({ object: 'list', data: MODELS.map((model) => describe(ctx, model, builtin)) });
}
