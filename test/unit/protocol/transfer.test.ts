import * as Comlink from 'comlink';
import { afterEach, describe, expect, it } from 'vitest';
import { EngineError, type EngineErrorKind } from '../../../src/protocol/errors';
import { registerEngineErrors } from '../../../src/protocol/wire';

const KINDS: EngineErrorKind[] = [
  'invalid_input',
  'not_found',
  'conflict',
  'too_large',
  'busy',
  'aborted',
  'internal',
  'upstream',
  'unavailable',
  'crashed',
  'storage_full',
];

let channel: MessageChannel | undefined;
afterEach(() => {
  channel?.port1.close();
  channel?.port2.close();
});

/** Both ends of a real MessageChannel: an exposed API on one port, its comlink remote on the other. */
function connect<T extends object>(api: T): Comlink.Remote<T> {
  registerEngineErrors();
  channel = new MessageChannel();
  Comlink.expose(api, channel.port1 as unknown as Comlink.Endpoint);
  return Comlink.wrap<T>(channel.port2 as unknown as Comlink.Endpoint);
}

describe('the EngineError transfer handler', () => {
  it('carries kind, message, code and param of every kind across a MessageChannel', async () => {
    const remote = connect({
      fail(kind: EngineErrorKind): void {
        throw new EngineError(kind, `failed as ${kind}`, `code_${kind}`, kind === 'busy' ? null : `param_${kind}`);
      },
    });
    for (const kind of KINDS) {
      const error = await remote.fail(kind).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EngineError);
      expect((error as EngineError).toData()).toEqual({
        kind,
        message: `failed as ${kind}`,
        code: `code_${kind}`,
        param: kind === 'busy' ? null : `param_${kind}`,
      });
    }
  });

  it('leaves other thrown values as comlink sends them, and registering twice changes nothing', async () => {
    registerEngineErrors();
    const remote = connect({
      plain(): void {
        throw new TypeError('plain failure');
      },
      value(): void {
        throw 'a string';
      },
    });
    const plain = await remote.plain().catch((e: unknown) => e);
    expect(plain).not.toBeInstanceOf(EngineError);
    expect(plain).toMatchObject({ name: 'TypeError', message: 'plain failure' });
    await expect(remote.value()).rejects.toBe('a string');
  });
});
