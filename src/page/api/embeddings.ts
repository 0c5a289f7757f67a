import * as v from 'valibot';
import { normalizeL2 } from '../../common/retrieval/vectors';
import type { Embeddings } from '../../protocol/embeddings';
import { base64 } from './http/base64';
import { parse, readJson } from './http/body';
import { dispatchTo, type Services } from './http/dispatch';
import { badRequest } from './http/errors';
import { requireModel } from './http/models-check';

/** OpenAI's limit on inputs per request. */
export const MAX_EMBEDDING_INPUTS = 2048;

const text = v.pipe(v.string(), v.minLength(1, 'empty strings cannot be embedded'));
const tokens = v.pipe(
  v.array(v.pipe(v.number(), v.integer(), v.minValue(0))),
  v.minLength(1, 'a token array cannot be empty'),
);
const many = `at most ${MAX_EMBEDDING_INPUTS} inputs per request`;

export const embeddingsSchema = v.object({
  model: v.string(),
  input: v.union(
    [
      text,
      v.pipe(v.array(text), v.minLength(1), v.maxLength(MAX_EMBEDDING_INPUTS, many)),
      tokens,
      v.pipe(v.array(tokens), v.minLength(1), v.maxLength(MAX_EMBEDDING_INPUTS, many)),
    ],
    'must be a non-empty string, an array of non-empty strings, a token array or an array of token arrays',
  ),
  encoding_format: v.optional(v.picklist(['float', 'base64']), 'float'),
  dimensions: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  user: v.optional(v.string()),
});

type Input = v.InferOutput<typeof embeddingsSchema>['input'];

/** Every input form as a list of strings or of token arrays. */
export function inputList(input: Input): string[] | number[][] {
  if (typeof input === 'string') return [input];
  if (typeof input[0] === 'number') return [input as number[]];
  return input as string[] | number[][];
}

/** Little-endian float32 bytes in base64, as the openai SDK decodes them. */
export function float32Base64(vector: Float32Array): string {
  const bytes = new Uint8Array(vector.length * 4);
  const view = new DataView(bytes.buffer);
  vector.forEach((value, i) => view.setFloat32(i * 4, value, true));
  return base64(bytes);
}

/** `dimensions`: the full width as it is; shorter only for truncatable models (slice, then renormalise). */
export function shorten(result: Embeddings, dimensions: number | undefined): Float32Array[] {
  const width = result.model.dimensions;
  if (dimensions === undefined || dimensions === width) return result.vectors;
  if (!result.model.truncatable || dimensions > width) {
    throw badRequest(
      result.model.truncatable
        ? `dimensions is ${dimensions}, more than the ${width} of '${result.model.id}'.`
        : `'${result.model.id}' makes ${width}-dimensional vectors and was not trained to be cut shorter: leave dimensions out or pass ${width}.`,
      'dimensions',
      'unsupported_value',
    );
  }
  return result.vectors.map((vector) => normalizeL2(vector.slice(0, dimensions)));
}

/** POST /embeddings */
export async function POST(ctx: Services, request: Request, path: string): Promise<Response> {
  const { value, raw } = await readJson(request);
  const body = parse(embeddingsSchema, value);
  const model = requireModel(body.model, 'memory', 'data');
  return dispatchTo(ctx, { request, path, raw }, { model: model.id, kind: 'embeddings' }, async (engine) => {
    const result = await engine.embed({ input: inputList(body.input) }, request.signal);
    const vectors = shorten(result, body.dimensions);
    const headers: Record<string, string> = result.truncated.length
      ? { 'x-vaani-truncated-inputs': result.truncated.join(',') }
      : {};
    return Response.json(
      {
        object: 'list',
        data: vectors.map((vector, index) => ({
          object: 'embedding',
          index,
          embedding: body.encoding_format === 'base64' ? float32Base64(vector) : Array.from(vector),
        })),
        model: body.model,
        usage: { prompt_tokens: result.tokens, total_tokens: result.tokens },
      },
      { headers },
    );
  });
}
