import * as Comlink from 'comlink';
import { EngineError, type EngineErrorData } from './errors';

type Thrown = { value: unknown };
type Wire = { engineError: EngineErrorData } | { other: unknown };

let registered = false;

/**
 * Lets an EngineError thrown in a worker reject the page's call as the same EngineError (comlink
 * alone keeps only an Error's message). This is comlink's own extension point: its 'throw' handler,
 * replaced by one that carries EngineErrors whole and hands anything else to the original. Both
 * sides call it (the worker host on the page, `exposeEngine` in a worker); calling again is a no-op.
 */
export function registerEngineErrors(): void {
  if (registered) return;
  registered = true;
  const original = Comlink.transferHandlers.get('throw') as Comlink.TransferHandler<Thrown, unknown>;
  Comlink.transferHandlers.set('throw', {
    canHandle: original.canHandle,
    serialize(thrown: Thrown): [Wire, Transferable[]] {
      if (thrown.value instanceof EngineError) return [{ engineError: thrown.value.toData() }, []];
      const [other, transfer] = original.serialize(thrown);
      return [{ other }, transfer];
    },
    deserialize(wire: Wire): never {
      if ('engineError' in wire) throw EngineError.from(wire.engineError);
      return original.deserialize(wire.other) as never;
    },
  } satisfies Comlink.TransferHandler<Thrown, Wire>);
}
