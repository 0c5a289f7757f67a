import type { EngineHosts } from '../hosts/engine-hosts';
import type { EngineModule, EngineRegistry } from './_registry';
import type { VaaniOptions } from '../../protocol/options';
import { ENGINES } from '../../catalogue/families';

/** Every engine file of this folder (`<kind>.ts`: its default export), by path. */
export const ENGINE_MODULES = import.meta.glob<EngineModule>(['./*.ts', '!./_*.ts', '!./index.ts'], {
  eager: true,
  import: 'default',
});

const rank = (engine: EngineModule) => {
  const at = ENGINES.indexOf(engine.kind);
  return at < 0 ? ENGINES.length : at;
};

/**
 * Registers every built-in local engine, in the family table's order (an id's first engine answers
 * its /v1/models info). A new engine is a file here and its ids' entries in the table.
 */
export function registerBuiltins(registry: EngineRegistry, options: VaaniOptions, hosts: EngineHosts): void {
  const engines = Object.values(ENGINE_MODULES).sort((a, b) => rank(a) - rank(b));
  for (const engine of engines)
    for (const factory of engine.factories({ options, hosts, registry })) registry.add(factory);
}
