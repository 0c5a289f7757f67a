/** Seeded generator of malformed requests for every route; each must get a 4xx in the error shape. */
export interface FuzzRequest {
  label: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  /** A JSON/text body, or multipart fields (a File when the value is { file: bytes }). */
  body?: string;
  form?: Record<string, string | { file: number[]; name: string }>;
}

type Kind = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object';
interface Field {
  name: string;
  kind: Kind;
  required?: boolean;
  nullable?: boolean;
  min?: number;
  max?: number;
}

const JSON_ROUTES: { path: string; valid: Record<string, unknown>; fields: Field[] }[] = [
  {
    path: '/chat/completions',
    valid: { model: 'chat-v2', messages: [{ role: 'user', content: 'hi' }] },
    fields: [
      { name: 'model', kind: 'string', required: true },
      { name: 'messages', kind: 'array', required: true },
      { name: 'stream', kind: 'boolean' },
      { name: 'temperature', kind: 'number', nullable: true, min: 0, max: 2 },
      { name: 'top_p', kind: 'number', nullable: true, min: 0, max: 1 },
      { name: 'max_tokens', kind: 'integer', nullable: true, min: 1 },
      { name: 'presence_penalty', kind: 'number', nullable: true, min: -2, max: 2 },
      { name: 'frequency_penalty', kind: 'number', nullable: true, min: -2, max: 2 },
      { name: 'seed', kind: 'integer', nullable: true },
      { name: 'tools', kind: 'array' },
    ],
  },
  {
    path: '/audio/speech',
    valid: { model: 'speech-tts-v1', voice: 'hi-IN-female', input: 'नमस्ते' },
    fields: [
      { name: 'model', kind: 'string', required: true },
      { name: 'voice', kind: 'string', required: true },
      { name: 'input', kind: 'string', required: true },
      { name: 'speed', kind: 'number', min: 0.5, max: 2 },
      { name: 'stability', kind: 'number', min: 0, max: 1 },
      { name: 'style', kind: 'number', min: 0, max: 1 },
    ],
  },
  {
    path: '/images/generations',
    valid: { prompt: 'a Warli peacock' },
    fields: [
      { name: 'prompt', kind: 'string', required: true },
      { name: 'n', kind: 'integer', min: 1, max: 4 },
      { name: 'model', kind: 'string' },
    ],
  },
  {
    path: '/code/completions',
    valid: { prompt: 'def add(a, b):' },
    fields: [
      { name: 'prompt', kind: 'string', required: true },
      { name: 'max_tokens', kind: 'integer', min: 1 },
      { name: 'temperature', kind: 'number', min: 0, max: 2 },
    ],
  },
  {
    path: '/data/query',
    valid: { query: 'when does it open', vector_store_ids: ['vs_fuzz'], mode: 'search' },
    fields: [
      { name: 'query', kind: 'string', required: true },
      { name: 'vector_store_ids', kind: 'array' },
      { name: 'max_num_results', kind: 'integer', min: 1, max: 50 },
      { name: 'score_threshold', kind: 'number', min: 0, max: 1 },
      { name: 'stream', kind: 'boolean' },
    ],
  },
  {
    path: '/vector_stores/vs_fuzz/search',
    valid: { query: 'when does it open' },
    fields: [
      { name: 'query', kind: 'string', required: true },
      { name: 'max_num_results', kind: 'integer', min: 1, max: 50 },
      { name: 'rewrite_query', kind: 'boolean' },
    ],
  },
  {
    path: '/agents/run',
    valid: { input: 'book a train' },
    fields: [
      { name: 'input', kind: 'string', required: true },
      { name: 'max_steps', kind: 'integer', min: 1, max: 50 },
    ],
  },
];

const FORM_ROUTES = [
  '/audio/transcriptions',
  '/audio/translations',
  '/audio/isolate',
  '/audio/voice-changer',
  '/audio/speech-to-speech',
];
const ALL_ROUTES = [...JSON_ROUTES.map((r) => r.path), ...FORM_ROUTES];

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SAMPLES: Record<Kind, unknown> = {
  string: 'text',
  number: 0.5,
  integer: 3,
  boolean: true,
  array: [1],
  object: { a: 1 },
};

export function malformedRequests(count: number, seed = 7): FuzzRequest[] {
  const random = rng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const auth = { authorization: 'Bearer fuzz' };
  const json = { ...auth, 'content-type': 'application/json' };

  const generators: (() => FuzzRequest)[] = [
    () => {
      const route = pick(JSON_ROUTES);
      const field = pick(route.fields);
      const wrong = (Object.keys(SAMPLES) as Kind[]).filter(
        (k) =>
          k !== field.kind &&
          !(field.kind === 'number' && k === 'integer') &&
          !(field.kind === 'integer' && k === 'number' && false),
      );
      const kind = pick(wrong);
      const value = field.kind === 'integer' && kind === 'number' ? 1.5 : SAMPLES[kind];
      return {
        label: `wrong type ${field.name}=${JSON.stringify(value)}`,
        method: 'POST',
        path: route.path,
        headers: json,
        body: JSON.stringify({ ...route.valid, [field.name]: value }),
      };
    },
    () => {
      const route = pick(JSON_ROUTES);
      const field = pick(route.fields.filter((f) => f.min !== undefined || f.max !== undefined));
      const value =
        random() < 0.5 && field.min !== undefined
          ? field.min - 1 - random() * 10
          : (field.max ?? 1e9) + 1 + random() * 10;
      return {
        label: `out of range ${field.name}=${value}`,
        method: 'POST',
        path: route.path,
        headers: json,
        body: JSON.stringify({ ...route.valid, [field.name]: field.kind === 'integer' ? Math.round(value) : value }),
      };
    },
    () => {
      const route = pick(JSON_ROUTES);
      const field = pick(route.fields.filter((f) => f.required));
      const body: Record<string, unknown> = { ...route.valid };
      delete body[field.name];
      return {
        label: `missing ${field.name}`,
        method: 'POST',
        path: route.path,
        headers: json,
        body: JSON.stringify(body),
      };
    },
    () => {
      const route = pick(JSON_ROUTES);
      const text = JSON.stringify(route.valid);
      const cut = Math.max(1, Math.floor(random() * (text.length - 1)));
      const broken = pick([
        text.slice(0, cut),
        `${text.slice(0, cut)}\u0000`,
        '',
        'null',
        '[]',
        '42',
        '"str"',
        'undefined',
        '{model:1}',
        `${text},`,
      ]);
      return {
        label: `broken JSON ${broken.slice(0, 20)}`,
        method: 'POST',
        path: route.path,
        headers: json,
        body: broken,
      };
    },
    () => {
      const messages = pick<unknown>([
        [],
        {},
        'hi',
        [{ role: 'wizard', content: 'x' }],
        [{ role: 'user' }],
        [{ role: 'user', content: 5 }],
        [null],
        [{ content: 'x' }],
        [{ role: 'user', content: [{ type: 'image_url' }] }],
        [{ role: 'tool', content: 'x' }],
      ]);
      return {
        label: `bad messages ${JSON.stringify(messages)}`,
        method: 'POST',
        path: '/chat/completions',
        headers: json,
        body: JSON.stringify({ model: 'chat-v2', messages }),
      };
    },
    () => {
      const body = pick<Record<string, unknown>>([
        { stop: ['a', 'b', 'c', 'd', 'e'] },
        { stop: '' },
        { n: 2 },
        { response_format: { type: 'xml' } },
        { response_format: { type: 'json_schema' } },
        { response_format: { type: 'json_schema', json_schema: { schema: {} } } },
        { tool_choice: 'sometimes' },
        { tools: [{ type: 'function', function: { name: 'has space' } }] },
        { stream_options: { include_usage: 'yes' } },
      ]);
      return {
        label: `bad chat option ${JSON.stringify(body)}`,
        method: 'POST',
        path: '/chat/completions',
        headers: json,
        body: JSON.stringify({ model: 'chat-v2', messages: [{ role: 'user', content: 'x' }], ...body }),
      };
    },
    () => {
      const route = pick(JSON_ROUTES);
      const model = pick(['gpt-4o', '', 'chat-v3', 'CHAT-V2', 'speech-stt-v1', 'image-v1 ', 'memory-v1']);
      const expected = route.path === '/images/generations' && model === 'image-v1 ' ? 'gpt' : model;
      return {
        label: `bad model ${JSON.stringify(expected)}`,
        method: 'POST',
        path: route.path,
        headers: json,
        body: JSON.stringify({
          ...route.valid,
          model: route.path === '/audio/speech' && model === 'speech-stt-v1' ? 'chat-v2' : model,
        }),
      };
    },
    () => {
      const route = pick(ALL_ROUTES);
      const headers = pick<Record<string, string>>([
        {},
        { authorization: 'Bearer' },
        { authorization: 'Basic abc' },
        { authorization: 'bearer' },
        { authorization: 'Bearer a b' },
      ]);
      return {
        label: `bad auth ${JSON.stringify(headers)}`,
        method: 'POST',
        path: route,
        headers: { ...headers, 'content-type': 'application/json' },
        body: '{}',
      };
    },
    () => {
      const route = pick(ALL_ROUTES);
      const type = pick(['text/plain', 'application/xml', 'application/x-www-form-urlencoded', '']);
      return {
        label: `content type ${type}`,
        method: 'POST',
        path: route,
        headers: { ...auth, ...(type ? { 'content-type': type } : {}) },
        body: 'model=chat-v2',
      };
    },
    () => {
      const route = pick([...ALL_ROUTES, '/models', '/voices']);
      const method = ALL_ROUTES.includes(route)
        ? pick(['GET', 'PUT', 'DELETE', 'PATCH'])
        : pick(['POST', 'PUT', 'DELETE', 'PATCH']);
      return {
        label: `method ${method} ${route}`,
        method,
        path: route,
        headers: auth,
        body: method === 'GET' ? undefined : '{}',
      };
    },
    () => {
      const path = pick([
        '/chat',
        '/chat/completion',
        '/audio',
        '/audio/speak',
        '/models/',
        '/v2/chat/completions',
        '/images',
        '/chat/completions/x',
      ]);
      return { label: `unknown route ${path}`, method: 'POST', path, headers: json, body: '{}' };
    },
    () => {
      const id = pick(['gpt-4', 'chat-v1', '%00', 'x'.repeat(300), 'chat-v2-pro-max']);
      return {
        label: `unknown model id ${id.slice(0, 10)}`,
        method: 'GET',
        path: `/models/${encodeURIComponent(id)}`,
        headers: auth,
      };
    },
    () => {
      const path = pick(FORM_ROUTES);
      const stt = path.includes('transcriptions') || path.includes('translations');
      const model = stt ? 'speech-stt-v1' : 'speech-v1-turbo';
      const file = { file: [1, 2, 3], name: 'a.wav' };
      type Form = Record<string, string | { file: number[]; name: string }>;
      const common: Form[] = [
        { model },
        { model, file: { file: [], name: 'empty.wav' } },
        { model, file: 'not a file' },
        { file, model: 'gpt-9' },
      ];
      const specific: Form[] = stt
        ? [
            { file, model, response_format: 'docx' },
            { file, model, temperature: 'warm' },
            { file, model, temperature: '3' },
            { file, model, language: 'Hindi' },
            { file, model: 'speech-tts-v1x' },
          ]
        : [
            { file, model, voice: 'v', speed: 'fast' },
            { file, model, voice: 'v', speed: '9' },
            { file, model, voice: 'v', stability: '-1' },
            { file, model, voice: 'v', style: '1.5' },
            { file, model: 'chat-v2', voice: 'v' },
          ];
      const form = pick([...common, ...specific]);
      return {
        label: `bad form ${path} ${JSON.stringify(form).slice(0, 80)}`,
        method: 'POST',
        path,
        headers: auth,
        form,
      };
    },
  ];
  return Array.from({ length: count }, () => pick(generators)());
}
