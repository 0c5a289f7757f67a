import type { ModelSource } from '../types';

export const DEFAULT_HOST = 'https://huggingface.co';

/**
 * The base URL a model's files are fetched under: `{host}/{repo}/resolve/{revision}/` for a hub repo,
 * else the source's baseURL (absolute, or a same-origin path resolved against the page).
 */
export function sourceBase(source: ModelSource, pageHref = globalThis.location?.href): string {
  if (source.baseURL) return new URL(source.baseURL.replace(/\/?$/, '/'), pageHref).href;
  if (!source.repo) throw new Error('A model source needs a repo or a baseURL.');
  const host = (source.host ?? DEFAULT_HOST).replace(/\/+$/, '');
  return `${host}/${source.repo}/resolve/${source.revision ?? 'main'}/`;
}
