import { findModel } from '../../../catalogue/families';
import type { Services } from '../http/dispatch';
import { ApiError } from '../http/errors';
import { describe } from '../models';
import { builtinAvailability } from '../../builtin';
import { probeWebGpu } from '../../../common/backends/webgpu';

/** GET /models/{model} (an alias answers with the model it names) */
export async function GET(ctx: Services, _request: Request, _path: string, { model: id }: Record<string, string>) {
  const model = findModel(id!);
  if (!model) throw new ApiError(404, `The model '${id}' does not exist.`, 'model_not_found', 'model');
  const [builtin, , plan] = await Promise.all([builtinAvailability(), probeWebGpu(), ctx.plan?.(model.id)]);
  return Response.json({ ...describe(ctx, model, builtin), ...(plan ? { x_vaani: plan } : {}) });
}
