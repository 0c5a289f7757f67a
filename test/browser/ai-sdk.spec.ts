import { expect, test, type Page } from '@playwright/test';
import { ensureTinyDiffusion, FIXTURE_URL as DIFFUSION_URL } from '../fixtures/diffusion/ensure';
import { ensureEncoderFixture } from '../fixtures/encoder/fixture-dir';
import { tinyXlmr } from '../fixtures/encoder/spec';
import { ensureDecoderFixture } from '../fixtures/llm/fixture-dir';
import { tinyQwen2 } from '../fixtures/llm/spec';
import { ensureTinyWhisper, FIXTURE_URL as WHISPER_URL } from '../fixtures/whisper/ensure';
import { openHarness } from './support/page';

/**
 * The real `ai` package (with vaani/ai-sdk) and `@langchain/openai`, in one page, on one Vaani whose
 * every model is a tiny fixture with random weights: each answer is compared with what the `/v1`
 * route itself gives for the same request, so the provider is shown to carry every setting through.
 */
const PAGE = '/test/browser/pages/ai-sdk.html';

const maxAbsDiff = (a: number[], b: number[]) =>
  a.length === b.length ? Math.max(...a.map((value, i) => Math.abs(value - b[i]!))) : Infinity;

let page: Page;
let errors: string[];

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  const [chat, embed] = await Promise.all([
    ensureDecoderFixture('tiny-qwen2-plain', { ...tinyQwen2, dtypes: ['fp32'] }),
    ensureEncoderFixture('tiny-xlmr', tinyXlmr),
    ensureTinyWhisper(),
    ensureTinyDiffusion(),
  ]);
  page = await browser.newPage();
  errors = await openHarness(page, PAGE);
  await page.evaluate(
    ({ chat, embed, whisper, image }) => {
      const ai = window.Vaani.createVaani({
        backend: 'wasm',
        models: {
          'chat-v2': { baseURL: chat },
          'embed-v1': { baseURL: embed, dtype: 'fp32' },
          'speech-stt-v1': { baseURL: whisper, dtype: 'fp32', indic: false },
          'espeak-ng': { baseURL: '/node_modules/@echogarden/espeak-ng-emscripten/' },
          'image-v1': { baseURL: image },
        },
      });
      // Every request the libraries send, as [path, body] (JSON bodies parsed, forms as objects).
      const sent: [string, unknown][] = [];
      const spy: typeof fetch = async (input, init) => {
        const path = new URL(String(input instanceof Request ? input.url : input)).pathname;
        const body = init?.body;
        sent.push([
          path,
          body instanceof FormData
            ? Object.fromEntries([...body].filter(([, v]) => typeof v === 'string'))
            : typeof body === 'string'
              ? JSON.parse(body)
              : null,
        ]);
        return ai.fetch(input, init);
      };
      const post = async (path: string, body: object) => {
        const response = await ai.fetch(`${ai.baseURL}${path}`, {
          method: 'POST',
          headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        if (!response.ok) throw new Error(await response.text());
        return response;
      };
      const vaani = window.aiSdk.createVaaniProvider({ baseURL: ai.baseURL, fetch: spy });
      Object.assign(window, { ai, vaani, sent, post, spy });
    },
    {
      chat: chat.url,
      embed: embed.url,
      whisper: `${WHISPER_URL}tiny/`,
      image: `${DIFFUSION_URL}tiny/`,
    },
  );
});

test.afterAll(async () => {
  await page.close();
});

interface PageGlobals {
  ai: ReturnType<Window['Vaani']['createVaani']>;
  vaani: ReturnType<Window['aiSdk']['createVaaniProvider']>;
  sent: [string, Record<string, unknown>][];
  post(path: string, body: object): Promise<Response>;
  spy: typeof fetch;
}

test('AI SDK language model: generateText, topK, a streamed tool loop, generateObject, abort, errors', async () => {
  const got = await page.evaluate(async () => {
    const { vaani, sent, post } = window as unknown as PageGlobals;
    const { ai: sdk, z } = window.aiSdk;
    const prompt = 'नमस्ते! Tell me about Pune.';
    const route = async (body: object) =>
      (await (
        await post('/chat/completions', { model: 'chat-v2', messages: [{ role: 'user', content: prompt }], ...body })
      ).json()) as { choices: { message: { content: string } }[] };

    const greedy = await sdk.generateText({ model: vaani('chat-v2'), prompt, maxOutputTokens: 6, temperature: 0 });
    const greedyRoute = await route({ max_tokens: 6, temperature: 0 });
    // top_k 1 samples only the likeliest token: greedy, whatever the temperature and seed.
    const topK = await sdk.generateText({
      model: vaani('chat-v2'),
      prompt,
      maxOutputTokens: 6,
      temperature: 1.5,
      topK: 1,
      seed: 3,
    });
    const seeded = await sdk.generateText({
      model: vaani('chat-v2'),
      prompt,
      maxOutputTokens: 6,
      temperature: 1,
      seed: 5,
      frequencyPenalty: 0.5,
    });
    const seededRoute = await route({ max_tokens: 6, temperature: 1, seed: 5, frequency_penalty: 0.5 });

    // A tool loop: the first step must call (constrained decoding), the second answers in text.
    sent.length = 0;
    const calls: string[] = [];
    const parts: string[] = [];
    const loop = sdk.streamText({
      model: vaani('chat-v2'),
      prompt: 'What is the weather in Pune?',
      maxOutputTokens: 64,
      temperature: 0,
      tools: {
        get_weather: sdk.tool({
          description: 'Current weather in a city',
          inputSchema: z.object({ city: z.string() }),
          execute: async ({ city }) => (calls.push(city), '27 °C'),
        }),
      },
      prepareStep: ({ stepNumber }) => ({ toolChoice: stepNumber === 0 ? 'required' : 'none' }),
      stopWhen: sdk.stepCountIs(2),
    });
    for await (const part of loop.fullStream) parts.push(part.type);
    const steps = await loop.steps;
    const loopBodies = sent.map(([, body]) => body);

    const Person = z.object({
      name: z.string(),
      age: z.number().int(),
      city: z.enum(['Pune', 'Chennai', 'Kolkata']),
      tags: z.array(z.enum(['chai', 'coffee'])).max(2),
    });
    sent.length = 0;
    const objects = [];
    for (const seed of [1, 2])
      objects.push(
        (
          await sdk.generateObject({
            model: vaani('chat-v2'),
            schema: Person,
            prompt: 'Describe a person.',
            temperature: 1,
            seed,
            maxOutputTokens: 96,
          })
        ).object,
      );
    const format = (sent[0]![1] as { response_format: unknown }).response_format;

    // Abort mid-stream: the stream ends, and the next request is answered.
    const controller = new AbortController();
    let aborted = false;
    const long = sdk.streamText({
      model: vaani('chat-v2'),
      prompt,
      maxOutputTokens: 200,
      abortSignal: controller.signal,
      onAbort: () => void (aborted = true),
    });
    let deltas = 0;
    for await (const part of long.fullStream) if (part.type === 'text-delta' && ++deltas === 1) controller.abort();
    const after = await sdk.generateText({ model: vaani('chat-v2'), prompt, maxOutputTokens: 6, temperature: 0 });

    const failure = await sdk
      .generateText({ model: vaani('no-such-model'), prompt, maxRetries: 0 })
      .then(() => null)
      .catch((error: { statusCode?: number; message: string }) => ({
        status: error.statusCode,
        message: error.message,
      }));

    return {
      greedy: { text: greedy.text, finish: greedy.finishReason, usage: greedy.usage.outputTokens },
      greedyRoute: greedyRoute.choices[0]!.message.content,
      topK: { text: topK.text, warnings: topK.warnings },
      seeded: seeded.text,
      seededRoute: seededRoute.choices[0]!.message.content,
      calls,
      parts: [...new Set(parts)],
      steps: steps.map((step) => ({
        finish: step.finishReason,
        calls: step.toolCalls.map((call) => ({ name: call.toolName, input: call.input })),
        results: step.toolResults.map((result) => result.output),
        text: step.text,
      })),
      loopBodies,
      objects,
      valid: objects.map((object) => Person.safeParse(object).success),
      format,
      aborted,
      deltas,
      after: after.text,
      failure,
    };
  });
  expect(got.greedy.text.length).toBeGreaterThan(0);
  expect(got.greedy.text).toBe(got.greedyRoute);
  expect(got.greedy.usage).toBeGreaterThan(0);
  expect(got.topK.text).toBe(got.greedy.text);
  expect(got.topK.warnings ?? []).toEqual([]);
  expect(got.seeded).toBe(got.seededRoute);

  expect(got.steps).toHaveLength(2);
  expect(got.steps[0]!.finish).toBe('tool-calls');
  expect(got.steps[0]!.calls).toEqual([{ name: 'get_weather', input: { city: got.calls[0] } }]);
  expect(got.steps[0]!.results).toEqual(['27 °C']);
  expect(got.steps[1]!.calls).toEqual([]);
  expect(got.parts).toEqual(expect.arrayContaining(['tool-call', 'tool-result', 'text-delta', 'finish']));
  const [first, second] = got.loopBodies as { tool_choice: unknown; messages: { role: string; content: unknown }[] }[];
  expect(first!.tool_choice).toBe('required');
  expect(second!.tool_choice).toBe('none');
  expect(second!.messages.find((m) => m.role === 'tool')?.content).toBe('27 °C');

  expect(got.valid).toEqual([true, true]);
  expect(got.format).toMatchObject({ type: 'json_schema', json_schema: { strict: true } });

  expect(got.aborted).toBe(true);
  expect(got.deltas).toBe(1);
  expect(got.after).toBe(got.greedy.text);
  expect(got.failure?.status).toBe(404);
  expect(got.failure?.message).toContain('no-such-model');
  expect(errors).toEqual([]);
});

test('AI SDK embeddings, transcription, speech and images equal their /v1 routes; unhonoured options warn', async () => {
  const got = await page.evaluate(async () => {
    const { vaani, sent, post } = window as unknown as PageGlobals;
    const { ai: sdk } = window.aiSdk;
    const texts = ['नमस्ते, मुझे चाय पसंद है।', 'Hello world'];
    const many = await sdk.embedMany({ model: vaani.embeddingModel('embed-v1'), values: texts });
    const one = await sdk.embed({ model: vaani.embeddingModel('embed-v1'), value: texts[0]! });
    const route = (await (await post('/embeddings', { model: 'embed-v1', input: texts })).json()) as {
      data: { embedding: number[] }[];
    };

    sent.length = 0;
    const audio = new Uint8Array(await (await fetch('/shared/audio/common_voice_en_59751.mp3')).arrayBuffer());
    const transcript = await sdk.transcribe({
      model: vaani.transcriptionModel('speech-stt-v1'),
      audio,
      providerOptions: { vaani: { language: 'en', keywords: ['Pune'] } },
    });
    const transcriptForm = sent[0]![1];

    sent.length = 0;
    const speechBody = { model: 'speech-tts-v1', voice: 'hi-IN-female-1', input: 'नमस्ते, आप कैसे हैं?' };
    const speech = await sdk.generateSpeech({
      model: vaani.speechModel('speech-tts-v1'),
      voice: speechBody.voice,
      text: speechBody.input,
      instructions: 'Speak softly.',
    });
    const speechSent = sent[0]![1];
    const speechRoute = new Uint8Array(
      await (await post('/audio/speech', { ...speechBody, response_format: 'wav' })).arrayBuffer(),
    );

    const image = await sdk.generateImage({
      model: vaani.imageModel('image-v1'),
      prompt: 'a village dance',
      seed: 42,
      aspectRatio: '1:1',
    });
    const imageRoute = (await (await post('/images/generations', { prompt: 'a village dance', seed: 42 })).json()) as {
      data: { b64_json: string }[];
    };
    return {
      many: many.embeddings,
      one: one.embedding,
      route: route.data.map((item) => item.embedding),
      transcript: {
        text: transcript.text,
        segments: transcript.segments,
        language: transcript.language,
        duration: transcript.durationInSeconds,
        warnings: transcript.warnings,
      },
      transcriptForm,
      speech: {
        type: speech.audio.mediaType,
        // The WAV header (format, rate, length) as the route writes it for the same request.
        header: speech.audio.uint8Array.slice(0, 44).every((byte, i) => byte === speechRoute[i]),
        routeBytes: speechRoute.length,
        firstDiff: speech.audio.uint8Array.findIndex((byte, i) => byte !== speechRoute[i]),
        bytes: speech.audio.uint8Array.length,
        warnings: speech.warnings,
      },
      speechSent,
      image: {
        type: image.image.mediaType,
        same: image.image.base64 === imageRoute.data[0]!.b64_json,
        warnings: image.warnings,
      },
    };
  });
  expect(got.many).toEqual(got.route);
  // Alone, a text is run without the batch's padding: equal within float error.
  expect(maxAbsDiff(got.one, got.route[0]!)).toBeLessThan(1e-5);
  expect(got.route[0]).toHaveLength(tinyXlmr.hiddenSize);

  expect(got.transcriptForm).toMatchObject({ model: 'speech-stt-v1', response_format: 'verbose_json', language: 'en' });
  expect(got.transcriptForm).not.toHaveProperty('keywords[]');
  expect(got.transcript.language).toBe('en');
  expect(got.transcript.duration).toBeGreaterThan(3);
  expect(got.transcript.text).toBe(
    got.transcript.segments
      .map((segment) => segment.text)
      .join('')
      .trim(),
  );
  for (const segment of got.transcript.segments) {
    expect(segment.startSecond).toBeGreaterThanOrEqual(0);
    expect(segment.endSecond).toBeLessThanOrEqual(got.transcript.duration!);
  }
  expect(got.transcript.warnings).toEqual([
    { type: 'unsupported', feature: 'providerOptions.keywords', details: 'Vaani ignores it.' },
  ]);

  expect(got.speechSent).toEqual({
    model: 'speech-tts-v1',
    input: 'नमस्ते, आप कैसे हैं?',
    voice: 'hi-IN-female-1',
    response_format: 'wav',
  });
  expect(got.speech).toMatchObject({ type: 'audio/wav', bytes: got.speech.routeBytes, header: true });
  expect(got.speech.bytes).toBeGreaterThan(10_000);
  expect(got.speech.warnings).toEqual([
    { type: 'unsupported', feature: 'instructions', details: "Vaani's voices take no instructions." },
  ]);

  expect(got.image).toMatchObject({ type: 'image/png', same: true });
  // The seed is honoured (no warning); the aspect ratio is the AI SDK's own unsupported warning.
  expect(got.image.warnings).toEqual([expect.objectContaining({ type: 'unsupported', feature: 'aspectRatio' })]);
  expect(errors).toEqual([]);
});

test('LangChain.js: ChatOpenAI invoke, stream and withStructuredOutput; OpenAIEmbeddings; over ai.fetch', async () => {
  const got = await page.evaluate(async () => {
    const { ai, sent, post, spy } = window as unknown as PageGlobals;
    const { ChatOpenAI, OpenAIEmbeddings, z } = window.aiSdk;
    const configuration = { baseURL: ai.baseURL, fetch: spy, dangerouslyAllowBrowser: true };
    const chat = new ChatOpenAI({
      model: 'chat-v2',
      apiKey: 'k',
      maxTokens: 6,
      temperature: 0,
      maxRetries: 0,
      configuration,
    });
    const prompt = 'नमस्ते! Tell me about Pune.';
    sent.length = 0;
    const invoked = await chat.invoke(prompt);
    const paths = sent.map(([path]) => path);
    let streamed = '';
    for await (const chunk of await chat.stream(prompt)) streamed += chunk.content;
    const route = (await (
      await post('/chat/completions', {
        model: 'chat-v2',
        messages: [{ role: 'user', content: prompt }],
        max_tokens: 6,
        temperature: 0,
      })
    ).json()) as { choices: { message: { content: string } }[] };

    const City = z.object({ city: z.enum(['Pune', 'Chennai']), days: z.number().int() });
    const structured = new ChatOpenAI({ model: 'chat-v2', apiKey: 'k', maxTokens: 96, maxRetries: 0, configuration });
    const viaSchema = await structured.withStructuredOutput(City, { method: 'jsonSchema' }).invoke('Plan a trip.');
    const viaTool = await structured.withStructuredOutput(City, { method: 'functionCalling' }).invoke('Plan a trip.');

    const embeddings = new OpenAIEmbeddings({ model: 'embed-v1', apiKey: 'k', maxRetries: 0, configuration });
    const texts = ['चाय', 'coffee'];
    const query = await embeddings.embedQuery(texts[0]!);
    const documents = await embeddings.embedDocuments(texts);
    const vectors = (await (await post('/embeddings', { model: 'embed-v1', input: texts })).json()) as {
      data: { embedding: number[] }[];
    };
    return {
      invoked: invoked.content,
      streamed,
      route: route.choices[0]!.message.content,
      paths,
      viaSchema,
      viaTool,
      valid: [viaSchema, viaTool].map((value) => City.safeParse(value).success),
      query,
      documents,
      vectors: vectors.data.map((item) => item.embedding),
    };
  });
  expect(got.paths).toEqual(['/v1/chat/completions']);
  expect(got.invoked).toBe(got.route);
  expect(got.streamed).toBe(got.route);
  expect(got.valid, JSON.stringify([got.viaSchema, got.viaTool])).toEqual([true, true]);
  expect(maxAbsDiff(got.query, got.vectors[0]!)).toBeLessThan(1e-5);
  expect(got.documents).toHaveLength(2);
  for (const [i, vector] of got.documents.entries()) expect(maxAbsDiff(vector, got.vectors[i]!)).toBeLessThan(1e-5);
  expect(errors).toEqual([]);
});
