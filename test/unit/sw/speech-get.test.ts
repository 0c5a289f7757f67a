import { describe, expect, it } from 'vitest';
import { speechBodyFromQuery } from '../../../src/protocol/sw';

describe('the GET form of /audio/speech', () => {
  it('makes each query parameter a body field, the numeric ones numbers', () => {
    const query = new URLSearchParams('model=speech-tts-v1&voice=hi-IN-female-1&input=1.5&speed=1.25&style=0');
    expect(speechBodyFromQuery(query)).toEqual({
      model: 'speech-tts-v1',
      voice: 'hi-IN-female-1',
      input: '1.5',
      speed: 1.25,
      style: 0,
    });
  });

  it('leaves a numeric field that is not a number as its string, for the route to reject', () => {
    expect(speechBodyFromQuery(new URLSearchParams('speed=fast&stability='))).toEqual({ speed: 'fast', stability: '' });
  });
});
