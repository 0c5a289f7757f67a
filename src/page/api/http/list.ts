/** OpenAI's list object: a page of items with its first and last ids. */
export const listOf = <T extends { id: string }>(page: { data: T[]; has_more: boolean }) => ({
  object: 'list',
  data: page.data,
  first_id: page.data[0]?.id ?? null,
  last_id: page.data.at(-1)?.id ?? null,
  has_more: page.has_more,
});
