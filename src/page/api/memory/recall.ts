// POST /memory/recall: the same as /memory/search.
export { POST } from './search';
