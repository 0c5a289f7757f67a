import type { Service } from './service';
import { byId, describeError, el, say } from './ui';

/** Memory tab: ai.memory.store / search (embed-v1 in a worker, kept in IndexedDB across reloads). */
export function mountMemory(service: Service): void {
  const status = byId('memory-status');
  const results = byId('memory-results');
  const user = byId<HTMLInputElement>('memory-user');
  const scope = () => ({ user_id: user.value.trim() || 'me' });
  const busy = async (what: string, run: () => Promise<string>) => {
    say(status, what, 'busy');
    try {
      say(status, await run(), 'ok');
    } catch (error) {
      say(status, describeError(error), 'error');
    }
  };

  byId('memory-store-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const text = byId<HTMLTextAreaElement>('memory-text');
    void busy('Embedding and storing…', async () => {
      const started = performance.now();
      const [memory] = await service.ai.memory.store({ text: text.value, scope: scope() });
      text.value = '';
      return `Stored ${memory!.id} in ${Math.round(performance.now() - started)} ms; it stays after a reload.`;
    });
  });

  byId('memory-search-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const query = byId<HTMLInputElement>('memory-query').value;
    const mode = byId<HTMLSelectElement>('memory-mode').value as 'hybrid' | 'semantic' | 'keyword';
    void busy('Searching…', async () => {
      const started = performance.now();
      const hits = await service.ai.memory.search({ query, mode, scope: scope(), limit: 10 });
      results.replaceChildren(
        ...hits.map((hit) =>
          el('li', {}, `${hit.text} `, el('small', { className: 'muted' }, `score ${hit.score.toFixed(3)}`)),
        ),
      );
      return `${hits.length} found (${mode}) in ${Math.round(performance.now() - started)} ms.`;
    });
  });

  byId('memory-forget').addEventListener('click', () =>
    busy('Forgetting…', async () => {
      const deleted = await service.ai.memory.deleteScope(scope());
      results.replaceChildren();
      return `Deleted ${deleted} memories of ${scope().user_id}.`;
    }),
  );
}
