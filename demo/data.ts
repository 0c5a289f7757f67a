import { ensureOk } from './api';
import type { Service } from './service';
import { byId, describeError, el, say } from './ui';

const STORE_KEY = 'vaani-demo-vector-store';

interface DataAnswer {
  answer: { content: string; annotations: { passage: number; filename: string }[] };
  invented_citations: number[];
  results: { passage: number; filename: string; content: { text: string }[] }[];
}

/** The JSON events of a Server-Sent Events answer. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function* sseEvents(response: Response): AsyncGenerator<any> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    buffer += read.value;
    const events = buffer.split('\n\n');
    buffer = events.pop()!;
    for (const event of events)
      if (event.startsWith('data: ') && event !== 'data: [DONE]') yield JSON.parse(event.slice(6));
  }
}

/**
 * Data tab: the page's own documents through the openai SDK (files.create, vectorStores.files
 * .createAndPoll, vectorStores.search), kept in IndexedDB across reloads.
 */
export function mountData(service: Service): void {
  const status = byId('data-status');
  const files = byId('data-files');
  const results = byId('data-results');
  /** Runs a step and says how it went: its text, or `[text, 'error']` for a failure it reports itself. */
  const busy = async (what: string, run: () => Promise<string | [string, 'error']>) => {
    say(status, what, 'busy');
    try {
      const result = await run();
      if (typeof result === 'string') say(status, result, 'ok');
      else say(status, ...result);
    } catch (error) {
      say(status, describeError(error), 'error');
    }
  };

  /** The demo's one vector store, made on first use and remembered in localStorage. */
  const store = async () => {
    const known = localStorage.getItem(STORE_KEY);
    if (known) {
      const found = await service.client.vectorStores.retrieve(known).catch(() => undefined);
      if (found) return found.id;
    }
    const made = await service.client.vectorStores.create({ name: 'Demo documents' });
    localStorage.setItem(STORE_KEY, made.id);
    return made.id;
  };

  const refresh = async () => {
    const id = await store();
    const page = await service.client.vectorStores.files.list(id, { limit: 100 });
    const names = await Promise.all(
      page.data.map((entry) => service.client.files.retrieve(entry.id).then((file) => file.filename)),
    );
    files.replaceChildren(
      ...page.data.map((entry, i) =>
        el(
          'li',
          {},
          `${names[i]} `,
          entry.last_error
            ? el('small', { className: 'failed' }, `failed: ${entry.last_error.message}`)
            : el('small', { className: 'muted' }, entry.status),
        ),
      ),
    );
    return page.data.length;
  };

  byId('data-upload-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const input = byId<HTMLInputElement>('data-file');
    const chosen = [...(input.files ?? [])];
    void busy(`Reading ${chosen.length} file(s)…`, async () => {
      const started = performance.now();
      const id = await store();
      const failed: string[] = [];
      for (const file of chosen) {
        const uploaded = await service.client.files.create({ file, purpose: 'assistants' });
        const ingested = await service.client.vectorStores.files.createAndPoll(
          id,
          { file_id: uploaded.id },
          { pollIntervalMs: 250 },
        );
        if (ingested.status !== 'completed')
          failed.push(`${file.name}: ${ingested.last_error?.message ?? ingested.status}`);
      }
      input.value = '';
      const total = await refresh();
      const took = `${Math.round(performance.now() - started)} ms`;
      // A file that could not be read is a failure, said as one, whatever else went in.
      if (failed.length)
        return [
          `${failed.length} of ${chosen.length} file(s) failed (${failed.join('; ')}); the store holds ${total} file(s).`,
          'error',
        ];
      return `Ingested in ${took}; the store holds ${total} file(s), kept after a reload.`;
    });
  });

  byId('data-search-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const query = byId<HTMLInputElement>('data-query').value;
    void busy('Searching…', async () => {
      const started = performance.now();
      const page = await service.client.vectorStores.search(await store(), { query, max_num_results: 5 });
      results.replaceChildren(
        ...page.data.map((hit) =>
          el(
            'li',
            {},
            el('strong', {}, hit.filename),
            ` ${hit.content
              .map((part) => part.text)
              .join(' ')
              .slice(0, 300)} `,
            el('small', { className: 'muted' }, `score ${hit.score.toFixed(3)}`),
          ),
        ),
      );
      return `${page.data.length} passages in ${Math.round(performance.now() - started)} ms.`;
    });
  });

  byId('data-ask-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const query = byId<HTMLInputElement>('data-query').value;
    const answer = byId('data-answer');
    void busy('Reading the passages and answering…', async () => {
      const started = performance.now();
      answer.textContent = '';
      const response = await fetch(`${service.ai.baseURL}/data/query`, {
        method: 'POST',
        headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query, vector_store_ids: [await store()], stream: true, max_tokens: 128 }),
      });
      await ensureOk(response);
      let final: DataAnswer | undefined;
      for await (const event of sseEvents(response)) {
        if (event.object === 'data.query.chunk') answer.textContent += event.delta.content;
        if (event.object === 'data.query') final = event as DataAnswer;
      }
      if (!final) throw new Error('The answer stream ended early.');
      results.replaceChildren(
        ...final.results.map((passage) =>
          el(
            'li',
            {},
            el('strong', {}, `[${passage.passage}] ${passage.filename}`),
            ` ${passage.content[0]!.text.slice(0, 300)}`,
          ),
        ),
      );
      const cited = final.answer.annotations.map((citation) => `[${citation.passage}] ${citation.filename}`);
      const invented = final.invented_citations.length
        ? `; removed invented ${final.invented_citations.map((n) => `[${n}]`).join(' ')}`
        : '';
      return `Answered in ${Math.round(performance.now() - started)} ms from ${final.results.length} passages; cites ${cited.join(', ') || 'none'}${invented}.`;
    });
  });

  byId('data-clear').addEventListener('click', () =>
    busy('Deleting…', async () => {
      const id = await store();
      const page = await service.client.vectorStores.files.list(id, { limit: 100 });
      for (const entry of page.data) await service.client.files.delete(entry.id);
      await service.client.vectorStores.delete(id);
      localStorage.removeItem(STORE_KEY);
      files.replaceChildren();
      results.replaceChildren();
      return `Deleted ${page.data.length} file(s) and the store.`;
    }),
  );

  service.addEventListener('change', () => void refresh().catch(() => undefined));
}
