import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { transcriptionSchema } from '../../../src/page/api/audio/_schema';

const file = new File([Uint8Array.of(1)], 'a.wav');
const parse = (fields: Record<string, unknown>) => v.safeParse(transcriptionSchema, { file, model: 'm', ...fields });

describe('chunking_strategy', () => {
  it("'auto' is OpenAI's server_vad defaults", () => {
    expect(parse({ chunking_strategy: 'auto' }).output).toMatchObject({
      chunking_strategy: { type: 'server_vad', prefix_padding_ms: 300, silence_duration_ms: 200, threshold: 0.5 },
    });
  });
  it('takes a server_vad object from form parts or JSON text, filling the defaults', () => {
    expect(parse({ chunking_strategy: { type: 'server_vad', threshold: '0.3' } }).output).toMatchObject({
      chunking_strategy: { type: 'server_vad', prefix_padding_ms: 300, silence_duration_ms: 200, threshold: 0.3 },
    });
    expect(parse({ chunking_strategy: '{"type":"server_vad","silence_duration_ms":500}' }).output).toMatchObject({
      chunking_strategy: { silence_duration_ms: 500, threshold: 0.5 },
    });
  });
  it('refuses other values', () => {
    for (const bad of ['none', { type: 'semantic_vad' }, { type: 'server_vad', threshold: '2' }, '{"type":1}'])
      expect(parse({ chunking_strategy: bad }).success).toBe(false);
    expect(parse({}).output).not.toHaveProperty('chunking_strategy');
  });
});
