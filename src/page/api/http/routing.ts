import { CATALOGUE } from '../../../catalogue/families';
import type { EngineChoice, Routing, VaaniOptions } from '../../../protocol/options';

const NAMED = ['local-first', 'local-only', 'remote-first', 'remote-only'];
const CHOICES: EngineChoice[] = ['builtin', 'local', 'remote'];

function check(routing: unknown, where: string): Routing {
  if (typeof routing === 'string' && NAMED.includes(routing)) return routing as Routing;
  const prefer = (routing as { prefer?: unknown } | null)?.prefer;
  if (
    Array.isArray(prefer) &&
    prefer.length > 0 &&
    prefer.every((choice) => CHOICES.includes(choice)) &&
    new Set(prefer).size === prefer.length
  )
    return { prefer: [...prefer] };
  throw new TypeError(
    `createVaani: ${where} must be one of ${NAMED.join(', ')} or { prefer: [...] } with some of ${CHOICES.join(', ')}, each once; got ${JSON.stringify(routing)}.`,
  );
}

/** Built-in ids (answered by the browser's own model) go to the browser unless the page says otherwise. */
const BUILTIN_DEFAULT: Routing = { prefer: ['builtin'] };

/** `createVaani({ routing })` checked once, as the routing of each model id (others 'local-first'). */
export function routingOf(option: VaaniOptions['routing']): (modelId: string) => Routing {
  const builtinIds = new Set(CATALOGUE.filter((model) => model.builtin).map((model) => model.id));
  const fallback = (id: string): Routing => (builtinIds.has(id) ? BUILTIN_DEFAULT : 'local-first');
  if (option === undefined) return fallback;
  if (typeof option === 'string' || (typeof option === 'object' && option !== null && 'prefer' in option)) {
    const all = check(option, 'routing');
    return () => all;
  }
  if (typeof option !== 'object' || option === null)
    throw new TypeError('createVaani: routing must be a string, { prefer } or an object by model id.');
  const byModel = new Map(Object.entries(option).map(([id, routing]) => [id, check(routing, `routing['${id}']`)]));
  return (id) => byModel.get(id) ?? fallback(id);
}
