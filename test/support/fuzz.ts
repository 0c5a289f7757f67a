import fc from 'fast-check';

/**
 * Seeded generators (fast-check) of malformed requests for every /v1 route, run in the page by
 * test/browser/fuzz.spec.ts. A request is `malformed` when no reading of docs/api.md accepts it: it
 * must be refused with a 4xx before any model loads. The others (unknown fields, empty or long
 * strings, broken files in a well-formed upload, odd ids and queries) may be answered or refused,
 * but only with a documented error.
 */
export type Method = 'GET' | 'POST' | 'DELETE';
export type FormPart =
  | { name: string; value: string }
  | {
      name: string;
      /** `bytes` as given, `zeros` that many zero bytes, or `wav` / `png` a small valid one made in the page. */
      file: { bytes?: number[]; zeros?: number; wav?: true; png?: true; filename: string; type?: string };
    };
export type FuzzBody =
  /** Text whose `expand` marks the page replaces by `times` × `unit` (huge and nested bodies made there). */
  { text: string; expand?: [mark: string, unit: string, times: number][] } | { bytes: number[] } | { form: FormPart[] };

export interface FuzzRequest {
  /** The route's path as routes.ts spells it. */
  route: string;
  family: string;
  malformed: boolean;
  method: string;
  /** Under the base URL; `{name}` segments are the page's ids of that name. */
  path: string;
  headers: Record<string, string>;
  body?: FuzzBody;
}

type Kind = 'string' | 'number' | 'boolean' | 'array' | 'object';
type Json = Record<string, unknown>;
interface RouteSpec {
  path: string;
  methods: Method[];
  /** The POST body: JSON (`optional` when a bodiless POST is `{}`) or multipart. */
  post?:
    | { kind: 'json' | 'optional'; valid: Json; typed: Record<string, Kind>; required: string[] }
    | { kind: 'form'; valid: FormPart[]; files: string[]; required: string[]; numeric: string[] };
  /** Query parameters a GET takes (values are mutated). */
  query?: string[];
}

const WAV: FormPart = { name: 'file', file: { wav: true, filename: 'tone.wav', type: 'audio/wav' } };
const PNG: FormPart = { name: 'image', file: { png: true, filename: 'square.png', type: 'image/png' } };
const NOTE = 'Boats leave from pier seven at dawn.\n';

/** Every route of src/page/api/routes.ts (the spec checks the list against it). */
export const ROUTE_SPECS: RouteSpec[] = [
  {
    path: '/chat/completions',
    methods: ['POST'],
    post: {
      kind: 'json',
      valid: { model: 'chat-v2', messages: [{ role: 'user', content: 'hi' }], max_tokens: 1 },
      typed: { model: 'string', messages: 'array', max_tokens: 'number', logprobs: 'boolean', tools: 'array' },
      required: ['model', 'messages'],
    },
  },
  {
    path: '/completions',
    methods: ['POST'],
    post: {
      kind: 'json',
      valid: { model: 'chat-v2', prompt: 'hi', max_tokens: 1 },
      typed: { model: 'string', max_tokens: 'number', echo: 'boolean' },
      required: ['model', 'prompt'],
    },
  },
  {
    path: '/code/completions',
    methods: ['POST'],
    post: {
      kind: 'json',
      valid: { model: 'code-v1', prompt: 'def add(a, b):', max_tokens: 1 },
      typed: { model: 'string', max_tokens: 'number', language: 'string' },
      required: ['prompt'],
    },
  },
  {
    path: '/responses',
    methods: ['POST'],
    post: {
      kind: 'json',
      valid: { model: 'chat-v2', input: 'hi', max_output_tokens: 1 },
      typed: { model: 'string', max_output_tokens: 'number', tools: 'array', text: 'object', reasoning: 'object' },
      required: ['model', 'input'],
    },
  },
  { path: '/responses/{response_id}', methods: ['GET', 'DELETE'] },
  { path: '/responses/{response_id}/input_items', methods: ['GET'], query: ['limit', 'order', 'after', 'include'] },
  {
    path: '/agents/run',
    methods: ['POST'],
    post: {
      kind: 'json',
      valid: { model: 'agent-v1', input: 'hi', max_steps: 1, max_tokens: 1 },
      typed: { model: 'string', tools: 'array', max_steps: 'number', max_tokens: 'number', instructions: 'string' },
      required: ['input'],
    },
  },
  {
    path: '/audio/speech',
    methods: ['POST'],
    post: {
      kind: 'json',
      valid: { model: 'speech-tts-v1', voice: 'hi-IN-female', input: 'नमस्ते' },
      typed: { model: 'string', voice: 'string', input: 'string', speed: 'number', response_format: 'string' },
      required: ['model', 'voice', 'input'],
    },
  },
  { path: '/audio/speech/formats', methods: ['GET'] },
  ...['/audio/transcriptions', '/audio/translations'].map((path): RouteSpec => ({
    path,
    methods: ['POST'],
    post: {
      kind: 'form',
      valid: [WAV, { name: 'model', value: 'speech-stt-v1' }],
      files: ['file'],
      required: ['file', 'model'],
      numeric: ['temperature'],
    },
  })),
  ...['/audio/isolate', '/audio/voice-changer', '/audio/speech-to-speech'].map((path): RouteSpec => ({
    path,
    methods: ['POST'],
    post: {
      kind: 'form',
      valid: path === '/audio/isolate' ? [WAV] : [WAV, { name: 'voice', value: 'hi-IN-female' }],
      files: ['file'],
      required: path === '/audio/isolate' ? ['file'] : ['file', 'voice'],
      numeric: ['speed', 'stability'],
    },
  })),
  {
    path: '/images/generations',
    methods: ['POST'],
    post: {
      kind: 'json',
      valid: { model: 'image-v1', prompt: 'a peacock', seed: 1 },
      typed: { prompt: 'string', model: 'string', n: 'number', seed: 'number', stream: 'boolean' },
      required: ['prompt'],
    },
  },
  {
    path: '/images/edits',
    methods: ['POST'],
    post: {
      kind: 'form',
      valid: [PNG, { name: 'prompt', value: 'a peacock' }, { name: 'model', value: 'image-v1' }],
      files: ['image'],
      required: ['image', 'prompt'],
      numeric: ['n', 'seed', 'strength'],
    },
  },
  {
    path: '/embeddings',
    methods: ['POST'],
    post: {
      kind: 'json',
      valid: { model: 'embed-v1', input: 'hi' },
      typed: { model: 'string', dimensions: 'number', encoding_format: 'string', user: 'string' },
      required: ['model', 'input'],
    },
  },
  { path: '/models', methods: ['GET'] },
  { path: '/models/{model}', methods: ['GET'] },
  { path: '/voices', methods: ['GET'] },
  { path: '/memory', methods: ['GET'], query: ['limit', 'order', 'after', 'user_id'] },
  {
    path: '/memory/store',
    methods: ['POST'],
    post: {
      kind: 'json',
      valid: { text: 'I like tea.', scope: { user_id: 'fuzz' } },
      typed: { text: 'string', items: 'array', metadata: 'object', scope: 'object', model: 'string' },
      required: ['text'],
    },
  },
  ...['/memory/search', '/memory/recall'].map((path): RouteSpec => ({
    path,
    methods: ['POST'],
    post: {
      kind: 'json',
      valid: { query: 'tea', scope: { user_id: 'fuzz' } },
      typed: { query: 'string', limit: 'number', scope: 'object', filters: 'object', min_score: 'number' },
      required: ['query'],
    },
  })),
  {
    path: '/memory/delete',
    methods: ['POST'],
    post: {
      kind: 'json',
      valid: { scope: { user_id: 'nobody' } },
      typed: { scope: 'object', filters: 'object', model: 'string' },
      required: ['scope'],
    },
  },
  {
    path: '/memory/{memory_id}',
    methods: ['GET', 'POST', 'DELETE'],
    post: {
      kind: 'json',
      valid: { metadata: { seen: true } },
      typed: { text: 'string', metadata: 'object', scope: 'object' },
      required: [],
    },
  },
  {
    path: '/files',
    methods: ['GET', 'POST'],
    post: {
      kind: 'form',
      valid: [
        { name: 'file', file: { bytes: [...Buffer.from(NOTE)], filename: 'note.md', type: 'text/markdown' } },
        { name: 'purpose', value: 'assistants' },
      ],
      files: ['file'],
      required: ['file', 'purpose'],
      numeric: [],
    },
    query: ['limit', 'order', 'after', 'purpose'],
  },
  { path: '/files/{file_id}', methods: ['GET', 'DELETE'] },
  { path: '/files/{file_id}/content', methods: ['GET'] },
  {
    path: '/vector_stores',
    methods: ['GET', 'POST'],
    post: {
      kind: 'optional',
      valid: { name: 'kb' },
      typed: { name: 'string', file_ids: 'array', metadata: 'object', chunking_strategy: 'object' },
      required: [],
    },
    query: ['limit', 'order', 'after', 'before'],
  },
  {
    path: '/vector_stores/{vector_store_id}',
    methods: ['GET', 'POST', 'DELETE'],
    post: { kind: 'optional', valid: { name: 'kb2' }, typed: { name: 'string', metadata: 'object' }, required: [] },
  },
  {
    path: '/vector_stores/{vector_store_id}/search',
    methods: ['POST'],
    post: {
      kind: 'optional',
      valid: { query: 'pier' },
      typed: { max_num_results: 'number', ranking_options: 'object', rewrite_query: 'boolean', filters: 'object' },
      required: ['query'],
    },
  },
  {
    path: '/vector_stores/{vector_store_id}/files',
    methods: ['GET', 'POST'],
    post: {
      kind: 'optional',
      valid: { file_id: '{file_id}' },
      typed: { file_id: 'string', attributes: 'object', chunking_strategy: 'object' },
      required: ['file_id'],
    },
    query: ['limit', 'order', 'filter'],
  },
  {
    path: '/vector_stores/{vector_store_id}/files/{file_id}',
    methods: ['GET', 'POST', 'DELETE'],
    post: { kind: 'optional', valid: { attributes: { lang: 'en' } }, typed: { attributes: 'object' }, required: [] },
  },
  { path: '/vector_stores/{vector_store_id}/files/{file_id}/content', methods: ['GET'] },
  {
    path: '/vector_stores/{vector_store_id}/file_batches',
    methods: ['POST'],
    post: {
      kind: 'optional',
      valid: { file_ids: ['{file_id}'] },
      typed: { file_ids: 'array', files: 'array', attributes: 'object' },
      required: [],
    },
  },
  { path: '/vector_stores/{vector_store_id}/file_batches/{batch_id}', methods: ['GET'] },
  { path: '/vector_stores/{vector_store_id}/file_batches/{batch_id}/cancel', methods: ['POST'] },
  { path: '/vector_stores/{vector_store_id}/file_batches/{batch_id}/files', methods: ['GET'], query: ['limit'] },
  {
    path: '/data/query',
    methods: ['POST'],
    post: {
      kind: 'json',
      valid: { query: 'pier', vector_store_ids: ['{vector_store_id}'], mode: 'search' },
      typed: {
        query: 'string',
        vector_store_ids: 'array',
        max_num_results: 'number',
        score_threshold: 'number',
        stream: 'boolean',
        filters: 'object',
      },
      required: ['query'],
    },
  },
];

const AUTH = { authorization: 'Bearer fuzz' };
const JSON_TYPE = { ...AUTH, 'content-type': 'application/json' };
const LIMIT_JSON = 4 * 1024 * 1024;
const LIMIT_UPLOAD = 25 * 1024 * 1024;

/** A JSON value of some other kind than `kind` (never null: several fields are nullable). */
const wrongValue = (kind: Kind) =>
  fc.oneof(
    ...(
      [
        ['string', fc.string({ maxLength: 20 })],
        ['number', fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }))],
        ['boolean', fc.boolean()],
        ['array', fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 })],
        ['object', fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 })],
      ] as [Kind, fc.Arbitrary<unknown>][]
    )
      .filter(([k]) => k !== kind)
      .map(([, arb]) => arb),
  );

const OPEN = '"@@OPEN@@"';
const CLOSE = '"@@CLOSE@@"';
const LONG = '@@LONG@@';
/** A value nested `depth` deep (arrays or objects), as text with marks the page expands. */
const nested = (depth: number, object: boolean) => ({
  text: `${OPEN}${object ? 1 : ''}${CLOSE}`,
  expand: [
    [OPEN, object ? '{"a":' : '[', depth],
    [CLOSE, object ? '}' : ']', depth],
  ] as [string, string, number][],
});

/** Byte sequences no UTF-8 decoder accepts. */
const BAD_UTF8 = [[0xff], [0xc0, 0x80], [0x80], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80]];

/** Unknown field names, some that look like prototypes. */
const unknownKey = fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.constantFrom('__proto__', 'constructor'));

const MARK = '@@BAD_UTF8@@';

const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

const concreteMethods = ['GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS'];

const withParam = (path: string, params: Record<string, string>) =>
  path.replace(/\{(\w+)\}/g, (all, name: string) => params[name] ?? all);

/** The request generators of one route. */
function generators(spec: RouteSpec): fc.Arbitrary<FuzzRequest>[] {
  const route = spec.path;
  const make = (family: string, malformed: boolean, rest: Omit<FuzzRequest, 'route' | 'family' | 'malformed'>) => ({
    route,
    family,
    malformed,
    ...rest,
  });
  const main: Method = spec.methods.includes('POST') ? 'POST' : spec.methods[0]!;
  const out: fc.Arbitrary<FuzzRequest>[] = [];

  // Wrong methods, bad auth: every route.
  out.push(
    fc.constantFrom(...concreteMethods.filter((m) => !spec.methods.includes(m as Method))).map((method) =>
      make('method', true, {
        method,
        path: route,
        headers: JSON_TYPE,
        body: method === 'GET' ? undefined : { text: '{}' },
      }),
    ),
    fc
      .constantFrom<Record<string, string>>(
        {},
        { authorization: 'Bearer' },
        { authorization: 'Basic Zm9vOmJhcg==' },
        { authorization: 'bearer k' },
        { authorization: 'Bearer a b' },
        { authorization: 'Bearer\tk' },
      )
      .map((headers) => make('auth', true, { method: main, path: route, headers })),
  );

  // Path parameters that name nothing.
  const params = [...route.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  if (params.length)
    out.push(
      fc
        .record({
          name: fc.constantFrom(...params),
          id: fc.oneof(
            fc.string({ minLength: 1, maxLength: 40 }),
            fc.constantFrom('..', '%00', 'x'.repeat(2000), 'file-../../etc', '\u{1F600}', 'null'),
          ),
          method: fc.constantFrom(...spec.methods),
        })
        .map(({ name, id, method }) =>
          make('unknown id', false, {
            method,
            path: withParam(route, { [name]: encodeURIComponent(id) }),
            headers: method === 'POST' && spec.post?.kind !== 'form' ? JSON_TYPE : AUTH,
            body: method === 'POST' && spec.post?.kind !== 'form' ? { text: '{}' } : undefined,
          }),
        ),
    );

  // Query strings on GET routes.
  if (spec.methods.includes('GET'))
    out.push(
      fc
        .dictionary(
          fc.oneof(fc.constantFrom(...(spec.query ?? ['limit']), 'order', 'limit'), fc.string({ maxLength: 8 })),
          fc.oneof(
            fc.string({ maxLength: 30 }),
            fc.constantFrom('-1', '0', '1e309', 'NaN', '101', 'asc', 'sideways', '', '[]', '%ZZ'),
          ),
          { maxKeys: 4 },
        )
        .map((query) =>
          make('query', false, {
            method: 'GET',
            path: `${route}?${Object.entries(query)
              .map(([k, v]) => `${encodeURIComponent(k)}=${v.startsWith('%') ? v : encodeURIComponent(v)}`)
              .join('&')}`,
            headers: AUTH,
          }),
        ),
    );

  const post = spec.post;
  if (!post) return out;
  if (post.kind === 'form') return [...out, ...formGenerators(spec, post, make)];

  const validText = JSON.stringify(post.valid);
  const json = (family: string, malformed: boolean, body: FuzzBody) =>
    make(family, malformed, { method: 'POST', path: route, headers: JSON_TYPE, body });
  const typedFields = Object.keys(post.typed);

  out.push(
    // Wrong content types (a bodiless POST without one is `{}` on the optional routes).
    fc
      .constantFrom(
        'text/plain',
        'application/xml',
        'multipart/form-data; boundary=x',
        'application/x-www-form-urlencoded',
        'application/json-patch+json',
        'json',
      )
      .map((type) =>
        make('content type', true, {
          method: 'POST',
          path: route,
          headers: { ...AUTH, 'content-type': type },
          body: { text: validText },
        }),
      ),
    // Broken JSON text.
    fc
      .oneof(
        fc.nat(validText.length - 1).map((cut) => validText.slice(0, cut)),
        fc.constantFrom(`${validText},`, `${validText}}`, "{'a':1}", '{model:1}', 'undefined', 'NaN', '{"a":01}'),
        fc.string({ maxLength: 40 }).filter((text) => !parses(text)),
      )
      .map((text) => json('broken JSON', true, { text })),
    // JSON that is not an object.
    fc
      .jsonValue({ maxDepth: 2 })
      .filter((value) => typeof value !== 'object' || value === null || Array.isArray(value))
      .map((value) => json('not an object', true, { text: JSON.stringify(value) })),
    // Bytes that are not UTF-8 inside an otherwise valid body (in a value or a key).
    fc.record({ bad: fc.constantFrom(...BAD_UTF8), key: fc.boolean() }).map(({ bad, key }) => {
      const text = JSON.stringify({ ...post.valid, ...(key ? { [MARK]: 1 } : { note: MARK }) });
      const [before, after] = text.split(MARK) as [string, string];
      return json('bad UTF-8', true, { bytes: [...Buffer.from(before), ...bad, ...Buffer.from(after)] });
    }),
    // Over the body limit.
    fc.nat(1024).map((extra) =>
      json('huge body', true, {
        text: `${validText.slice(0, -1)},"x":"${LONG}"}`,
        expand: [[LONG, 'a', LIMIT_JSON + extra]],
      }),
    ),
    // Unknown fields, some deeply nested (ignored, so the request is well formed).
    fc
      .record({
        extra: fc.dictionary(unknownKey, fc.jsonValue({ maxDepth: 3 }), { minKeys: 1, maxKeys: 4 }),
        depth: fc.oneof(fc.constant(0), fc.integer({ min: 1000, max: 100_000 })),
        object: fc.boolean(),
      })
      .map(({ extra, depth, object }) => {
        const text = JSON.stringify({ ...post.valid, ...extra });
        if (!depth) return json('unknown fields', false, { text });
        const deep = nested(depth, object);
        return json('unknown fields', false, {
          text: `${text.slice(0, -1)},"deep_extra":${deep.text}}`,
          expand: deep.expand,
        });
      }),
    // Every string field empty, or very long (within the body limit).
    fc.oneof(fc.constant(0), fc.integer({ min: 10_000, max: 200_000 })).map((length) =>
      json(length ? 'long strings' : 'empty strings', false, {
        text: JSON.stringify(
          Object.fromEntries(Object.entries(post.valid).map(([k, v]) => [k, typeof v === 'string' ? LONG : v])),
        ),
        expand: [[LONG, 'é', length]],
      }),
    ),
    // Null for each field in turn; but a null token cap is valid and means "up to the context", a
    // long answer rather than a malformed request.
    fc
      .constantFrom(...Object.keys(post.valid).filter((field) => !TOKEN_CAPS.has(field)))
      .map((field) => json('null field', false, { text: JSON.stringify({ ...post.valid, [field]: null }) })),
  );
  if (typedFields.length)
    out.push(
      // A field of the wrong type.
      fc
        .constantFrom(...typedFields)
        .chain((field) => wrongValue(post.typed[field]!).map((value) => ({ field, value })))
        .map(({ field, value }) =>
          json(`wrong type`, true, { text: JSON.stringify({ ...post.valid, [field]: value }) }),
        ),
      // A deeply nested value where a field is typed (arrays where an object goes: unknown keys are ignored).
      fc
        .record({
          field: fc.constantFrom(...typedFields),
          depth: fc.integer({ min: 1000, max: 100_000 }),
          object: fc.boolean(),
        })
        .map(({ field, depth, object }) => {
          const rest = JSON.stringify(Object.fromEntries(Object.entries(post.valid).filter(([k]) => k !== field)));
          const { text, expand } = nested(depth, object && post.typed[field] !== 'object');
          return json('deep nesting', true, {
            text: rest === '{}' ? `{"${field}":${text}}` : `${rest.slice(0, -1)},"${field}":${text}}`,
            expand,
          });
        }),
    );
  if (post.required.length)
    out.push(
      fc.constantFrom(...post.required).map((field) =>
        json('missing field', true, {
          text: JSON.stringify(Object.fromEntries(Object.entries(post.valid).filter(([k]) => k !== field))),
        }),
      ),
    );
  return out;
}

function formGenerators(
  spec: RouteSpec,
  post: Extract<RouteSpec['post'], { kind: 'form' }>,
  make: (f: string, m: boolean, r: Omit<FuzzRequest, 'route' | 'family' | 'malformed'>) => FuzzRequest,
): fc.Arbitrary<FuzzRequest>[] {
  const form = (family: string, malformed: boolean, parts: FormPart[]) =>
    make(family, malformed, { method: 'POST', path: spec.path, headers: AUTH, body: { form: parts } });
  const without = (name: string) => post.valid.filter((part) => part.name !== name);
  const fileName = post.files[0]!;
  const bytes = fc.uint8Array({ maxLength: 2048 }).map((b) => [...b]);
  const out: fc.Arbitrary<FuzzRequest>[] = [
    // Multipart sent as another type, or bodies that are not multipart.
    fc.constantFrom('application/json', 'text/plain', 'application/octet-stream', 'audio/wav').map((type) =>
      make('content type', true, {
        method: 'POST',
        path: spec.path,
        headers: { ...AUTH, 'content-type': type },
        body: { text: '{"model":"x"}' },
      }),
    ),
    fc
      .record({
        boundary: fc.constantFrom('x', 'fuzz', '"quoted"', ''),
        body: fc.oneof(
          bytes,
          fc
            .constantFrom(
              '--x\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc',
              '--x\r\n\r\n--x--',
              'garbage',
              '--fuzz\r\nContent-Disposition: form-data\r\n\r\nv\r\n--fuzz--\r\n',
            )
            .map((text) => [...Buffer.from(text)]),
        ),
      })
      .map(({ boundary, body }) =>
        make('broken multipart', true, {
          method: 'POST',
          path: spec.path,
          headers: { ...AUTH, 'content-type': `multipart/form-data; boundary=${boundary}` },
          body: { bytes: body },
        }),
      ),
    fc.constantFrom(...post.required).map((name) => form('missing field', true, without(name))),
    // A text part where the file goes.
    fc
      .string({ maxLength: 20 })
      .map((text) => form('file as text', true, [...without(fileName), { name: fileName, value: text }])),
    // An upload over the limit.
    fc
      .nat(1024)
      .map((extra) =>
        form('huge upload', true, [
          ...without(fileName),
          { name: fileName, file: { zeros: LIMIT_UPLOAD + extra, filename: 'big.wav', type: 'audio/wav' } },
        ]),
      ),
    // Broken files: random bytes, empty, truncated, under odd names and types.
    fc
      .record({
        data: fc.oneof(
          bytes,
          fc.constant([] as number[]),
          fc.constant([...Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt ')]),
        ),
        filename: fc.oneof(
          fc.string({ maxLength: 30 }),
          fc.constantFrom('a.wav', 'a.png', '..\\..\\x', 'x'.repeat(500)),
        ),
        type: fc.constantFrom('audio/wav', 'image/png', '', 'application/x-evil', 'text/html'),
      })
      .map(({ data, filename, type }) =>
        form('broken file', false, [
          ...without(fileName),
          { name: fileName, file: { bytes: [...data], filename, type } },
        ]),
      ),
    // Unknown parts, repeated parts, empty values.
    fc
      .array(
        fc.record({
          name: fc.oneof(fc.string({ minLength: 1, maxLength: 10 }), fc.constantFrom('model', 'x[]', 'y[k]')),
          value: fc.string({ maxLength: 20 }),
        }),
        { minLength: 1, maxLength: 4 },
      )
      .map((extra) => form('unknown fields', false, [...post.valid, ...extra])),
  ];
  if (post.numeric.length)
    out.push(
      fc
        .record({
          name: fc.constantFrom(...post.numeric),
          value: fc.oneof(fc.constantFrom('warm', 'NaN', '1e999', '-1', '0x10', ''), fc.string({ maxLength: 8 })),
        })
        .map(({ name, value }) => form('numeric field', false, [...post.valid, { name, value }])),
    );
  return out;
}

/** `count` requests for `spec`'s route, from `seed`. */
/**
 * `malformed` malformed requests of one route, with the well-formed ones generated among them (at
 * most `wellFormed` of those), in the order generated; the same seed gives the same list.
 */
export function fuzzRoute(spec: RouteSpec, malformed: number, seed: number, wellFormed = Infinity): FuzzRequest[] {
  const arbitrary = fc.oneof(...generators(spec));
  const out: FuzzRequest[] = [];
  let bad = 0;
  let good = 0;
  for (let round = 0; bad < malformed; round++)
    for (const request of fc.sample(arbitrary, { seed: seed + round * 7919, numRuns: Math.max(malformed, 8) })) {
      if (bad >= malformed) break;
      if (!request.malformed && good >= wellFormed) continue;
      out.push(request);
      if (request.malformed) bad++;
      else good++;
    }
  return out;
}

/** A valid request of each route that changes nothing (for "the next valid request answers"). */
export function validRequest(spec: RouteSpec): FuzzRequest {
  const post = spec.post;
  const method: Method = post ? 'POST' : spec.methods[0]!;
  if (!post) return { route: spec.path, family: 'valid', malformed: false, method, path: spec.path, headers: AUTH };
  return {
    route: spec.path,
    family: 'valid',
    malformed: false,
    method,
    path: spec.path,
    headers: post.kind === 'form' ? AUTH : JSON_TYPE,
    body: post.kind === 'form' ? { form: post.valid } : { text: JSON.stringify(post.valid) },
  };
}

/** The fields that cap an answer's length. */
const TOKEN_CAPS = new Set(['max_tokens', 'max_output_tokens', 'max_completion_tokens']);

/** The error type of a status, as docs/api.md's table gives it. */
const typeOf = (status: number) =>
  status === 401
    ? 'authentication_error'
    : status === 404
      ? 'not_found_error'
      : status === 429
        ? 'rate_limit_error'
        : status >= 500
          ? 'server_error'
          : 'invalid_request_error';

/**
 * The documented errors as `status type code`: each row of docs/api.md's error table, and each
 * status the route sections state for a code ("404 `response_not_found`").
 */
export function documentedErrors(apiDoc: string): Set<string> {
  const rows = new Set<string>();
  for (const line of apiDoc.split('\n')) {
    const cells = /^\| (\d{3}) \| (\w+) \| (.+?) \| /.exec(line);
    if (cells) for (const code of cells[3]!.matchAll(/`([a-z_]+)`/g)) rows.add(`${cells[1]} ${cells[2]} ${code[1]}`);
    else
      for (const [, status, code] of line.matchAll(/\b([45]\d\d) `([a-z_]+)`/g))
        rows.add(`${status} ${typeOf(Number(status))} ${code}`);
  }
  return rows;
}
