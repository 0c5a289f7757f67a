import type { BrowserContext, Page } from '@playwright/test';
import type { ReferenceRequest, ReferenceResult } from '../../fixtures/llm/transformers-page';

export type { ReferenceRequest, ReferenceResult };

declare global {
  interface Window {
    transformersGreedy?: (request: ReferenceRequest) => Promise<ReferenceResult>;
  }
}

/**
 * Greedy generation by transformers.js (`@huggingface/transformers`, WASM, local files only) on a
 * generated fixture: the second implementation the chat engine is compared against token for token.
 * Opens its own page in the same browser context (so the caller's page is untouched) and closes it.
 *
 *   const fixture = await ensureDecoderFixture('tiny-llama', tinyLlama);
 *   const reference = await transformersReference(page, { fixtureUrl: fixture.url, dtype: 'fp32',
 *     messages: [{ role: 'user', content: 'नमस्ते' }], maxNewTokens: 16 });
 *   // reference.promptIds, reference.tokens (greedy ids, eos included if reached), reference.text
 */
export async function transformersReference(
  pageOrContext: Page | BrowserContext,
  request: ReferenceRequest,
): Promise<ReferenceResult> {
  const context = 'context' in pageOrContext ? pageOrContext.context() : pageOrContext;
  const page = await context.newPage();
  // Vite's HMR socket would reload the page whenever anyone edits a page of the shared test server.
  await page.routeWebSocket(
    () => true,
    () => {},
  );
  try {
    for (let attempt = 1; ; attempt++) {
      await page.goto('/test/browser/pages/llm-fixture-transformers.html');
      await page.waitForLoadState('networkidle');
      await page.waitForFunction(() => document.title === 'ready');
      try {
        return await page.evaluate((input) => window.transformersGreedy!(input), request);
      } catch (error) {
        // The first visit can make vite optimise transformers.js and reload the page mid-run.
        if (attempt > 1 || !String(error).includes('Execution context was destroyed')) throw error;
      }
    }
  } finally {
    await page.close();
  }
}
