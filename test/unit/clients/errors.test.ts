import { describe, expect, it } from 'vitest';
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  DataError,
  ImagesError,
  InternalServerError,
  MemoryError,
  NotFoundError,
  RateLimitError,
  StoreError,
  VaaniError,
} from '../../../src/index';
import { WidgetError } from '../../../src/widgets/service';

const body = (code: string, type: string, param: string | null = null) => ({
  error: { message: `failed: ${code}`, code, param, type },
});

describe('the error hierarchy', () => {
  it('generate picks the subclass by status, like the openai SDK', () => {
    const cases: [number, typeof APIError][] = [
      [400, BadRequestError],
      [401, AuthenticationError],
      [404, NotFoundError],
      [409, ConflictError],
      [429, RateLimitError],
      [500, InternalServerError],
      [503, InternalServerError],
      [507, InternalServerError],
      [413, APIError],
      [499, APIError],
    ];
    for (const [status, Class] of cases) {
      const error = APIError.generate(status, body('some_code', 'server_error', 'model'));
      expect(error.constructor).toBe(Class);
      expect(error).toBeInstanceOf(APIError);
      expect(error).toBeInstanceOf(VaaniError);
      expect(error).toBeInstanceOf(Error);
      expect(error).toMatchObject({ status, message: 'failed: some_code', code: 'some_code', param: 'model' });
      expect(error.name).toBe(Class.name);
    }
  });

  it('fromResponse reads the body, its headers, and a body that is not JSON', async () => {
    const headers = { 'retry-after': '2', 'content-type': 'application/json' };
    const busy = await APIError.fromResponse(
      Response.json(body('engine_busy', 'rate_limit_error'), { status: 429, headers }),
    );
    expect(busy).toBeInstanceOf(RateLimitError);
    expect(busy).toMatchObject({ code: 'engine_busy', type: 'rate_limit_error', param: null });
    expect(busy.headers?.get('retry-after')).toBe('2');

    const html = await APIError.fromResponse(new Response('<h1>Bad gateway</h1>', { status: 502 }));
    expect(html).toBeInstanceOf(InternalServerError);
    expect(html).toMatchObject({ status: 502, message: '<h1>Bad gateway</h1>', code: null, type: null });

    const empty = await APIError.fromResponse(new Response(null, { status: 404, statusText: 'Not Found' }));
    expect(empty).toMatchObject({ status: 404, message: 'Not Found' });
  });

  it("fromEvent takes a stream's status from its error type (500 when unknown)", () => {
    expect(APIError.fromEvent(body('invalid_value', 'invalid_request_error', 'size'))).toBeInstanceOf(BadRequestError);
    expect(APIError.fromEvent(body('model_not_found', 'not_found_error'))).toMatchObject({ status: 404 });
    expect(APIError.fromEvent(body('engine_busy', 'rate_limit_error'))).toBeInstanceOf(RateLimitError);
    expect(APIError.fromEvent(body('engine_crashed', 'server_error'))).toMatchObject({ status: 500 });
    expect(APIError.fromEvent({ error: { message: 'odd' } })).toMatchObject({ status: 500, message: 'odd' });
  });

  it('the older names are the same class; StoreError and WidgetError are VaaniErrors', () => {
    expect(MemoryError).toBe(APIError);
    expect(DataError).toBe(APIError);
    expect(ImagesError).toBe(APIError);
    expect(APIError.generate(404, body('memory_not_found', 'not_found_error'))).toBeInstanceOf(MemoryError);
    expect(new StoreError('quota_exceeded', 'full')).toBeInstanceOf(VaaniError);
    expect(new StoreError('quota_exceeded', 'full').name).toBe('StoreError');
    expect(new WidgetError('denied', 'mic_denied')).toBeInstanceOf(VaaniError);
    expect(new WidgetError('denied', 'mic_denied').name).toBe('WidgetError');
  });
});
