import * as v from 'valibot';
import { pageOf } from '../../../../common/paging';
import { parse } from '../../http/body';
import { listOf } from '../../http/list';

import { ApiError } from '../../http/errors';
import type { Services } from '../../http/dispatch';
import type { OutputItem } from '../_output';
import type { ApprovalResponse } from '../../../services/agents/approval';
import { isMessage, type ResponsesRequest } from '../_schema';
import { randomId } from '../../../../common/ids';

type Part = { type: string; text?: string };

/** An input message as OpenAI lists it (`ResponseInputMessageItem`). */
interface InputMessageItem {
  id: string;
  type: 'message';
  status: 'completed';
  role: 'user' | 'system' | 'developer';
  content: Part[];
}

interface FunctionCallOutputItem {
  id: string;
  type: 'function_call_output';
  status: 'completed';
  call_id: string;
  output: string | Part[];
}

/** One item of `GET /responses/{id}/input_items`: an input item with its id, or an earlier response's output item. */
export type ListedItem = InputMessageItem | FunctionCallOutputItem | OutputItem | (ApprovalResponse & { id: string });

const parts = (content: string | Part[], type: string): Part[] =>
  typeof content === 'string' ? [{ type, text: content }] : content;

/**
 * A request's input as stored items, each given an id (a function call keeps its own): user, system
 * and developer messages as input messages, an assistant message as an output message.
 */
export function inputItemsOf(input: ResponsesRequest['input']): ListedItem[] {
  const items = typeof input === 'string' ? [{ role: 'user' as const, content: input }] : input;
  return items.map((item): ListedItem => {
    if (item.type === 'reasoning') return { id: randomId('rs_'), ...item } as ListedItem;
    if (item.type === 'function_call')
      return {
        id: item.id ?? randomId('fc_'),
        type: 'function_call',
        status: 'completed',
        call_id: item.call_id,
        name: item.name,
        arguments: item.arguments,
      };
    if (item.type === 'function_call_output') return { id: randomId('fco_'), ...item, status: 'completed' };
    if (item.type === 'mcp_approval_response') return { ...item, id: item.id ?? randomId('mcpa_') };
    if (!isMessage(item)) return { id: randomId('mcp_'), ...item } as unknown as ListedItem;
    if (item.role === 'assistant')
      return {
        id: randomId('msg_'),
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: parts(item.content, 'output_text').map((part) => ({
          type: 'output_text',
          text: part.text ?? '',
          annotations: [],
          logprobs: [],
        })),
      };
    return {
      id: randomId('msg_'),
      type: 'message',
      status: 'completed',
      role: item.role,
      content: parts(item.content, 'input_text'),
    };
  });
}

/** OpenAI's list query; `include[]` is how the openai SDK writes the array. */
const querySchema = v.object({
  limit: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1), v.maxValue(100)), '20'),
  order: v.optional(v.picklist(['asc', 'desc']), 'desc'),
  after: v.optional(v.string()),
  before: v.optional(v.string()),
});

/**
 * GET /responses/{id}/input_items: the items the response was generated from, in conversation
 * order — for a `previous_response_id` chain, the earlier responses' inputs and outputs first (as
 * OpenAI lists them). `order` `desc` (the default) lists the newest first.
 */
export async function GET(ctx: Services, request: Request, _path: string, { response_id: id }: Record<string, string>) {
  const stored = ctx.responses.get(id!);
  if (!stored) throw new ApiError(404, `No response with id '${id}' is kept in this page.`, 'response_not_found', 'id');
  const search = new URL(request.url).searchParams;
  const { include: _one, 'include[]': _many, ...rest } = Object.fromEntries(search);
  const query = parse(querySchema, rest);
  const include = new Set([...search.getAll('include'), ...search.getAll('include[]')]);
  const results = include.has('file_search_call.results');
  const rows = stored.input.map((item, created_at) => ({ id: item.id, created_at, item }));
  const page = pageOf(rows, { ...query, limit: Number(query.limit) });
  const data = page.data.map(({ item }) =>
    item.type === 'file_search_call' && !results ? { ...item, results: null } : item,
  );
  return Response.json(listOf({ data, has_more: page.has_more }));
}
