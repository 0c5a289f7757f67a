/**
 * The README's quick start, file for file: what a web developer writes to use the packed library
 * in a vite app. consumer.spec.ts writes these into a temp folder, installs the tarball, builds and runs them.
 */
export const QUICK_START: Record<string, string> = {
  'index.html': `<!doctype html>
<meta charset="utf-8">
<title>My app</title>
<p id="answer">Thinking…</p>
<script type="module" src="/main.js"></script>
`,
  'main.js': `import { createVaani } from 'vaani';

// The in-page /v1 service. Model files come from the hub unless you say where you serve them.
const ai = createVaani({ models: { 'chat-v2': { baseURL: '/models/chat-v2/' } } });
ai.install(); // fetch('/v1/...') now answers in this page

const response = await fetch('/v1/chat/completions', {
  method: 'POST',
  headers: { 'Content-Type': 'application/json', Authorization: 'Bearer local' },
  body: JSON.stringify({ model: 'chat-v2', messages: [{ role: 'user', content: 'नमस्ते!' }], max_tokens: 32 }),
});
const completion = await response.json();
document.querySelector('#answer').textContent = response.ok ? completion.choices[0].message.content : completion.error.message;
document.body.dataset.backend = response.headers.get('x-vaani-backend') ?? '';
`,
  'vite.config.js': `// Workers as ES modules (they load onnxruntime-web on demand); cross-origin isolation for WASM threads.
const headers = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

export default {
  worker: { format: 'es' },
  optimizeDeps: { exclude: ['vaani'] },
  server: { headers },
  preview: { headers },
};
`,
  'package.json': `{
  "name": "my-app",
  "private": true,
  "type": "module",
  "scripts": { "dev": "vite", "build": "vite build", "preview": "vite preview" }
}
`,
};
