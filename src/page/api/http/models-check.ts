import { findModel, type CatalogueEntry, type Product } from '../../../catalogue/families';
import { ApiError, badRequest } from './errors';

/** 404 for an id the catalogue lacks, 400 for one of another product. */
export function requireModel(id: string, ...products: Product[]) {
  const model = findModel(id);
  if (!model) {
    throw new ApiError(
      404,
      `The model '${id}' does not exist. GET /v1/models lists the models.`,
      'model_not_found',
      'model',
    );
  }
  if (!products.includes(model.product)) {
    throw new ApiError(
      400,
      `The model '${id}' is a ${model.product} model and is not supported on this route; use it on ${model.route}.`,
      'model_not_supported',
      'model',
    );
  }
  return model;
}

/** Like requireModel, for routes that only some models of a product answer (speech vs transcription). */
export function requireRouteModel(id: string, ...routes: string[]) {
  const model = requireModel(id, 'chat', 'voice', 'image', 'code', 'agents', 'memory', 'data');
  if (!routes.includes(model.route)) {
    throw new ApiError(
      400,
      `The model '${id}' is not supported on this route; use it on /v1${model.route}.`,
      'model_not_supported',
      'model',
    );
  }
  return model;
}

/** 400 when max_tokens alone exceeds the model's catalogue context (the engine checks the prompt too). */
export function requireWithinContext(model: CatalogueEntry, maxTokens: number | null | undefined) {
  if (maxTokens && model.context_window && maxTokens > model.context_window) {
    throw badRequest(
      `max_tokens is ${maxTokens}, more than the ${model.context_window}-token context of '${model.id}'.`,
      'max_tokens',
      'context_length_exceeded',
    );
  }
}
