import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  aliasesOf,
  CATALOGUE,
  DEFAULT_MODELS,
  defaultModel,
  ENGINES,
  findModel,
  MODEL_TABLE,
  modelsOf,
  sourceOf,
} from '../../../src/catalogue/families';
import { ENGINE_MODULES, registerBuiltins } from '../../../src/page/engines';
import type { EngineFactory, EngineRegistry } from '../../../src/page/engines/_registry';
import type { EngineHosts } from '../../../src/page/hosts/engine-hosts';
import type { EngineKind } from '../../../src/protocol/engines';

/** The factories the page registers, without starting any worker. */
const builtins = () => {
  const factories: EngineFactory<EngineKind>[] = [];
  const registry = { add: (factory: EngineFactory<EngineKind>) => factories.push(factory) };
  registerBuiltins(registry as unknown as EngineRegistry, {}, {} as EngineHosts);
  return factories;
};

describe('the family table', () => {
  it('gives each route and role one default model', () => {
    const roles = Object.values(MODEL_TABLE).flatMap((entry) => entry.defaultFor ?? []);
    expect(new Set(roles).size).toBe(roles.length);
    for (const role of roles) expect(MODEL_TABLE[defaultModel(role)].defaultFor).toContain(role);
    expect(() => defaultModel('/no/such/route')).toThrow(/No model is the default/);
    expect(DEFAULT_MODELS).toEqual({ chat: 'chat-v2', transcription: 'speech-stt-v1', speech: 'speech-tts-v1' });
  });

  it('and the page-side engines answer the same ids, both ways', () => {
    const factories = builtins();
    const kinds = [...new Set(factories.map((factory) => factory.kind))].sort();
    expect(kinds).toEqual([...new Set(Object.values(MODEL_TABLE).flatMap((entry) => entry.engines))].sort());
    for (const kind of kinds) {
      const answered = factories.filter((factory) => factory.kind === kind).flatMap((factory) => factory.models);
      expect([...answered].sort(), kind).toEqual([...modelsOf(kind)].sort());
    }
  });

  it('has one engine file per engine it names, each exporting its own kind', () => {
    const files = Object.entries(ENGINE_MODULES).map(([path, engine]) => [path, engine.kind]);
    expect(files.sort()).toEqual([...ENGINES].sort().map((kind) => [`./${kind}.ts`, kind]));
  });

  it('lists the listed ids only, finds them by alias, and keeps local-only ids out', () => {
    expect(CATALOGUE.map((model) => model.id)).not.toContain('code-v1-base');
    expect(findModel('code-v1-base')).toBeUndefined();
    expect(findModel('whisper-1')?.id).toBe('speech-stt-v1');
    expect(findModel('text-embedding-3-large')?.id).toBe('embed-v1');
    expect(aliasesOf('speech-tts-v1')).toEqual(['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts']);
    expect(aliasesOf('chat-v2')).toEqual([]);
    expect(MODEL_TABLE['code-v1'].completion && sourceOf(MODEL_TABLE['code-v1'].completion)).toEqual({
      repo: 'onnx-community/Qwen2.5-Coder-0.5B',
      revision: 'main',
    });
  });

  it('gives image-v1 a default export whose licence allows commercial use, with its use restrictions', () => {
    expect(sourceOf('image-v1')).toEqual({ repo: 'aislamov/lcm-dreamshaper-v7-onnx', revision: 'main', dtype: 'fp16' });
    const image = findModel('image-v1')!;
    expect(image).toMatchObject({ license: 'CreativeML-OpenRAIL-M', commercial: true });
    expect(image.use_restrictions).toMatch(/Attachment A.*medical advice.*same restrictions/);
    // Only models whose catalogue states a licence carry the fields.
    expect(findModel('chat-v2')).not.toHaveProperty('license');
  });

  it('is the one place model ids are spelled in the routes and the widgets (comments aside)', () => {
    const ids = Object.keys(MODEL_TABLE).join('|');
    const literal = new RegExp(`['"\`](${ids})['"\`]`, 'g');
    const found = ['src/page/api', 'src/widgets'].flatMap((folder) =>
      readdirSync(folder, { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.ts'))
        .flatMap((file) => {
          const code = readFileSync(`${folder}/${file}`, 'utf8')
            .replace(/\/\*[\s\S]*?\*\//g, '')
            .replace(/^\s*\/\/.*$/gm, '');
          return [...code.matchAll(literal)].map((match) => `${folder}/${file}: ${match[0]}`);
        }),
    );
    expect(found).toEqual([]);
  });
});
