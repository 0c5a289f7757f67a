import type { EngineHosts } from '../hosts/engine-hosts';
import type { EngineRegistry } from './_registry';
import type { VaaniOptions } from '../../protocol/options';
import { chatEngines } from './chat';
import { dataEngines } from './data';
import { embeddingsEngines } from './embeddings';
import { imagesEngines } from './images';
import { memoryEngines } from './memory';
import { speechEngines } from './speech';
import { transcriptionEngines } from './transcription';
import { transformEngines } from './transform';

/** Registers every built-in local engine. A new engine family is one line here. */
export function registerBuiltins(registry: EngineRegistry, options: VaaniOptions, hosts: EngineHosts): void {
  for (const factory of chatEngines(options, hosts)) registry.add(factory);
  for (const factory of speechEngines(options, hosts)) registry.add(factory);
  for (const factory of transcriptionEngines(options, hosts)) registry.add(factory);
  for (const factory of transformEngines(options)) registry.add(factory);
  for (const factory of embeddingsEngines(options, hosts)) registry.add(factory);
  for (const factory of imagesEngines(options, hosts)) registry.add(factory);
  for (const factory of memoryEngines(options)) registry.add(factory);
  for (const factory of dataEngines(options, registry)) registry.add(factory);
}
