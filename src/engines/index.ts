import type { EngineRegistry } from '../runtime/engines';
import type { VaaniOptions } from '../types';

/** Registers every built-in local engine. A new engine family is one line here. */
export function registerBuiltins(registry: EngineRegistry, options: VaaniOptions): void {
  void registry;
  void options;
}
