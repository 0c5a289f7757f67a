import { expect, test } from '@playwright/test';
import { DataType, encodeModel, valueInfo } from '../fixtures/llm/onnx-builder';

/** Expand to a shape its input cannot broadcast to: onnxruntime fails in the kernel, and logs the failure. */
const badExpand = () =>
  encodeModel(
    {
      name: 'bad-expand',
      node: [{ opType: 'Expand', input: ['x', 'shape'], output: ['y'], name: 'expand' }],
      input: [valueInfo('x', DataType.float, ['n']), valueInfo('shape', DataType.int64, [1])],
      output: [valueInfo('y', DataType.float, ['m'])],
    },
    17,
  );

test("onnxruntime's own error lines reach the page's console without a terminal's colour codes", async ({ page }) => {
  const lines: string[] = [];
  page.on('console', (message) => lines.push(message.text()));
  await page.goto('/test/browser/pages/worker-host.html');
  await page.waitForFunction(() => document.title === 'ready');
  const error = await page.evaluate(async (bytes) => {
    const worker = new Worker('/test/browser/pages/ort-error.worker.ts', { type: 'module' });
    const answer = new Promise<string>((resolve) => (worker.onmessage = (event) => resolve(event.data)));
    worker.postMessage(new Uint8Array(bytes));
    return answer;
  }, Array.from(badExpand()));
  expect(error).toContain('invalid expand shape');
  await expect.poll(() => lines.filter((line) => line.includes('[E:onnxruntime:')).length).toBeGreaterThan(0);
  const logged = lines.filter((line) => line.includes('onnxruntime'));
  expect(logged.join('\n')).not.toContain('\u001b');
});
