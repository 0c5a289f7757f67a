import { describe, expect, it } from 'vitest';
import { PRODUCTS } from '../../../demo/fit';
import { planTarget } from '../../../src/page/services/plan';

describe('the demo\'s "Will it run here?" panel', () => {
  it('names for each product the model ai.plan plans for it', () => {
    for (const [product, , model] of PRODUCTS) expect([product, planTarget(product)]).toEqual([product, model]);
  });
});
