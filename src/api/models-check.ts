import { findModel, type Product } from '../catalogue/models';
import { ApiError } from './errors';

/** 404 for an id the catalogue lacks, 400 for one of another product. */
export function requireModel(id: string, ...products: Product[]) {
  const model = findModel(id);
  if (!model) {
    throw new ApiError(404, `The model '${id}' does not exist. GET /v1/models lists the models.`, 'model_not_found', 'model');
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
