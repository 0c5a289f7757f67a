import type { CompiledGrammar, GrammarCompiler, GrammarMatcher } from '@mlc-ai/web-xgrammar';
import { COMPACT_JSON_OBJECT } from './json-grammar';
import type { GrammarRequest, JsonShape } from './request';
import { checkSchema } from './schema';
import type { GrammarVocabulary } from './vocabulary';
import { loadXGrammar, type XGrammar } from './xgrammar';

/** A grammar advanced token by token alongside generation. */
export interface TokenConstraint {
  /**
   * Sets the logits of every token the grammar forbids next to -Infinity. `closing` (the token
   * budget is nearly spent) also lifts the tokens that end JSON soonest (closing quotes and
   * brackets, the end-of-sequence token) far above the rest, so the answer still ends valid.
   */
  mask(logits: Float32Array, closing: boolean): Promise<void>;
  /** Advances the grammar by the chosen token. */
  accept(token: number): void;
  dispose(): void;
}

/** A schema or grammar XGrammar refused (the request's fault: a 400). */
export class GrammarRejected extends Error {
  override name = 'GrammarRejected';
}

/** At most one whitespace character between JSON tokens: `json.dumps` style or compact, never a run. */
const WHITESPACE = 1;
const CACHED = 16;

/**
 * How soon a token ends JSON: one that starts with `"` closes the string it is in (or opens the
 * shortest value), `}` or `]` closes a container, `,` moves on to a required next member; one that
 * goes on to open more (`,` `:` `{` `[` `"` after its first character) counts less, and one that
 * starts with whitespace least. Byte tokens (`<0x22>`…) count as their character.
 */
function closerScores(vocabulary: GrammarVocabulary): Float32Array {
  const bytes = new Map([
    ['<0x22>', '"'],
    ['<0x7D>', '}'],
    ['<0x5D>', ']'],
    ['<0x2C>', ','],
  ]);
  const first = new Map([
    ['"', 3],
    ['}', 2],
    [']', 2],
    [',', 1],
  ]);
  const scores = new Float32Array(vocabulary.tokens.length);
  vocabulary.tokens.forEach((token, id) => {
    const text = bytes.get(token) ?? token;
    const lead = text[0] ?? '';
    scores[id] = (first.get(lead) ?? (/\s|Ġ|Ċ|ĉ|▁/.test(lead) ? -3 : 0)) - (/[,:{["]/.test(text.slice(1)) ? 2 : 0);
  });
  return scores;
}

/** Whether the budget is nearly spent: the last quarter of it, at least 64 tokens. */
export const closingStage = (remaining: number, budget: number) => remaining <= Math.max(64, budget / 4);

interface Compiler {
  xg: XGrammar;
  compiler: GrammarCompiler;
  scores: Float32Array;
}

/**
 * One model's grammar compiler (XGrammar, fed from its tokenizer.json vocabulary), built on first
 * use; compiled grammars are kept for the last few distinct requests.
 */
export class Grammars {
  private compiler: Promise<Compiler> | undefined;
  private readonly compiled = new Map<string, Promise<CompiledGrammar>>();

  constructor(
    private readonly vocabulary: (size: number) => GrammarVocabulary,
    private readonly stopIds: number[],
    private readonly load: () => Promise<XGrammar> = loadXGrammar,
  ) {}

  /** A fresh matcher for `request`, for logits of width `size`. */
  async open(request: GrammarRequest, size: number): Promise<TokenConstraint> {
    const { xg, scores } = await this.start(size);
    const key = JSON.stringify(request);
    let compiled = this.compiled.get(key);
    if (!compiled) {
      compiled = this.compile(request);
      compiled.catch(() => this.compiled.delete(key));
      this.compiled.set(key, compiled);
      if (this.compiled.size > CACHED) {
        const [oldest, entry] = this.compiled.entries().next().value!;
        this.compiled.delete(oldest);
        void entry.then(
          (grammar) => grammar.dispose(),
          () => undefined,
        );
      }
    }
    const matcher = await xg.GrammarMatcher.createGrammarMatcher(await compiled, this.stopIds);
    return matcherConstraint(matcher, scores, this.stopIds);
  }

  private start(size: number): Promise<Compiler> {
    this.compiler ??= (async () => {
      const xg = await this.load();
      const vocabulary = this.vocabulary(size);
      const info = await xg.TokenizerInfo.createTokenizerInfo(
        vocabulary.tokens,
        vocabulary.vocabType,
        vocabulary.prependSpace,
        size,
        this.stopIds,
      );
      const compiler = await xg.GrammarCompiler.createGrammarCompiler(info);
      return { xg, compiler, scores: closerScores(vocabulary) };
    })();
    this.compiler.catch(() => (this.compiler = undefined));
    return this.compiler;
  }

  private async compile(request: GrammarRequest) {
    const { xg, compiler } = await this.compiler!;
    try {
      if (request.kind === 'json') {
        const { schema, strict } = request.json;
        if (schema === undefined) return await compiler.compileGrammar(COMPACT_JSON_OBJECT);
        return await compiler.compileJSONSchema(enforceable(schema), true, undefined, undefined, strict, WHITESPACE);
      }
      const tags = await Promise.all(
        request.tools.map(async (tool) => ({
          type: 'tag' as const,
          begin: request.syntax.open,
          content: {
            type: 'sequence' as const,
            elements: [
              { type: 'regex' as const, pattern: '\\n?' },
              { type: 'const_string' as const, value: `{"name": "${tool.name}", "arguments": ` },
              {
                type: 'grammar' as const,
                grammar: await jsonEbnf(xg, { schema: tool.parameters, strict: tool.strict }),
              },
              { type: 'regex' as const, pattern: '\\}\\n?' },
            ],
          },
          end: request.syntax.close,
        })),
      );
      const calls = {
        type: 'tags_with_separator' as const,
        tags,
        separator: '\n',
        at_least_one: true,
        stop_after_first: !request.parallel,
      };
      const format = request.required
        ? calls
        : request.json
          ? {
              type: 'or' as const,
              elements: [calls, { type: 'grammar' as const, grammar: await jsonEbnf(xg, request.json) }],
            }
          : { ...calls, type: 'triggered_tags' as const, triggers: [request.syntax.open], at_least_one: false };
      return await compiler.compileStructuralTag({ type: 'structural_tag', format });
    } catch (error) {
      throw new GrammarRejected(
        `The grammar could not be compiled: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}

const enforceable = (schema: unknown) => JSON.stringify(checkSchema(schema, false).enforceable);

const jsonEbnf = (xg: XGrammar, json: JsonShape) =>
  json.schema === undefined
    ? Promise.resolve(COMPACT_JSON_OBJECT)
    : xg.Testings._jsonSchemaToEBNF(enforceable(json.schema), true, undefined, undefined, json.strict, WHITESPACE);

/** Above any logit: lifts closing tokens over every other allowed one. */
const LIFT = 1e4;

function matcherConstraint(matcher: GrammarMatcher, scores: Float32Array, stopIds: number[]): TokenConstraint {
  return {
    async mask(logits, closing) {
      const bits = await matcher.getNextTokenBitmask();
      for (let word = 0; word < bits.length; word++) {
        const value = bits[word]!;
        if (value === -1 && !closing) continue;
        const base = word * 32;
        for (let bit = 0; bit < 32 && base + bit < logits.length; bit++) {
          const id = base + bit;
          if (((value >>> bit) & 1) === 0) logits[id] = -Infinity;
          else if (closing) logits[id]! += LIFT * (stopIds.includes(id) ? 100 : (scores[id] ?? 0));
        }
      }
    },
    accept(token) {
      if (!matcher.acceptToken(token)) throw new Error(`The grammar refused token ${token}.`);
    },
    dispose: () => matcher.dispose(),
  };
}
