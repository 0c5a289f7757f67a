import type { Page } from '@playwright/test';

/** Opens the harness page (built library + openai SDK) and fails the test on any uncaught page error. */
export async function openHarness(page: Page, path = '/test/browser/pages/harness.html') {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(path);
  await page.waitForFunction(() => document.title === 'ready');
  return errors;
}
