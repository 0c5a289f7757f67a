import type { CompiledGrammar, GrammarCompiler, GrammarMatcher } from '@mlc-ai/web-xgrammar';
import { COMPACT_JSON_OBJECT } from './json-grammar';
import type { GrammarRequest } from './request';
import { checkSchema } from './schema';
import type { GrammarVocabulary } from './vocabulary';
import { loadXGrammar, watchXGrammar, type WatchedXGrammar, type XGrammar } from './xgrammar';

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

/** A schema or grammar XGrammar refused (the request's fault: a 400), with where it sits in the request. */
export class GrammarRejected extends Error {
  override name = 'GrammarRejected';
  constructor(
    message: string,
    readonly param: string,
  ) {
    super(message);
  }
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
  watched: WatchedXGrammar;
  compiler: GrammarCompiler;
  scores: Float32Array;
  /** Grammars this compiler compiled, for the last few distinct requests. */
  cache: Map<string, Promise<CompiledGrammar>>;
}

/**
 * One model's grammar compiler (XGrammar, fed from its tokenizer.json vocabulary), built on first
 * use; compiled grammars are kept for the last few distinct requests. XGrammar's WASM is not
 * trusted after any failure (it leaks stack on each): the compiler and its grammars are dropped and
 * the next request loads a fresh XGrammar (`load` gives a new instance each call).
 */
export class Grammars {
  private compiler: Promise<Compiler> | undefined;

  constructor(
    private readonly vocabulary: (size: number) => GrammarVocabulary,
    private readonly stopIds: number[],
    private readonly load: () => Promise<XGrammar> = loadXGrammar,
  ) {}

  /** A fresh matcher for `request`, for logits of width `size`. */
  async open(request: GrammarRequest, size: number): Promise<TokenConstraint> {
    const started = this.start(size);
    const compiler = await started;
    const matchers: GrammarMatcher[] = [];
    try {
      // One at a time: a failure's message is read from XGrammar's output right after it.
      for (const part of alternatives(request))
        matchers.push(
          await compiler.watched.xg.GrammarMatcher.createGrammarMatcher(
            await this.grammar(compiler, part),
            this.stopIds,
          ),
        );
    } catch (error) {
      this.discard(started);
      throw error;
    }
    return matcherConstraint(matchers, compiler.scores, this.stopIds, () => this.discard(started));
  }

  /** Drops a compiler whose XGrammar failed (with its grammars: matchers already open keep theirs). */
  private discard(compiler: Promise<Compiler>): void {
    if (this.compiler === compiler) this.compiler = undefined;
  }

  /** The compiled grammar of one alternative, kept for the last few distinct ones. */
  private grammar(compiler: Compiler, request: GrammarRequest): Promise<CompiledGrammar> {
    const { cache } = compiler;
    const key = JSON.stringify(request);
    let compiled = cache.get(key);
    if (!compiled) {
      compiled = this.compile(compiler, request);
      compiled.catch(() => cache.delete(key));
      cache.set(key, compiled);
      if (cache.size > CACHED) {
        const [oldest, entry] = cache.entries().next().value!;
        cache.delete(oldest);
        void entry.then(
          (grammar) => grammar.dispose(),
          () => undefined,
        );
      }
    }
    return compiled;
  }

  private start(size: number): Promise<Compiler> {
    const started = (this.compiler ??= (async () => {
      const watched = await watchXGrammar(await this.load());
      const vocabulary = this.vocabulary(size);
      const info = await watched.xg.TokenizerInfo.createTokenizerInfo(
        vocabulary.tokens,
        vocabulary.vocabType,
        vocabulary.prependSpace,
        size,
        this.stopIds,
      );
      const compiler = await watched.xg.GrammarCompiler.createGrammarCompiler(info);
      return { watched, compiler, scores: closerScores(vocabulary), cache: new Map() };
    })());
    started.catch(() => this.discard(started));
    return started;
  }

  private async compile({ watched, compiler }: Compiler, request: GrammarRequest): Promise<CompiledGrammar> {
    if (request.kind === 'json') {
      const { schema, strict, param } = request.json;
      return attempt(watched, param, () =>
        schema === undefined
          ? compiler.compileGrammar(COMPACT_JSON_OBJECT)
          : jsonEbnf(watched.xg, schema, strict).then((ebnf) => compiler.compileGrammar(ebnf)),
      );
    }
    const tags = [];
    for (const tool of request.tools) {
      const grammar = await attempt(watched, tool.param, () => jsonEbnf(watched.xg, tool.parameters, tool.strict));
      tags.push({
        type: 'tag' as const,
        begin: request.syntax.open,
        content: {
          type: 'sequence' as const,
          elements: [
            { type: 'regex' as const, pattern: '\\n?' },
            { type: 'const_string' as const, value: `{"name": "${tool.name}", "arguments": ` },
            { type: 'grammar' as const, grammar },
            { type: 'regex' as const, pattern: '\\}\\n?' },
          ],
        },
        end: request.syntax.close,
      });
    }
    const calls = {
      type: 'tags_with_separator' as const,
      tags,
      separator: '\n',
      at_least_one: true,
      stop_after_first: !request.parallel,
    };
    const format = request.required
      ? calls
      : { ...calls, type: 'triggered_tags' as const, triggers: [request.syntax.open], at_least_one: false };
    return attempt(watched, 'tools', () => compiler.compileStructuralTag({ type: 'structural_tag', format }));
  }
}

/**
 * The grammars an answer may follow, each compiled on its own: with `auto` tools and a JSON format,
 * the calls alone (as if required) or the JSON. XGrammar 0.1.27's structural tags cannot join the
 * two (an `or` of an open-ended calls list and a bounded grammar is refused), so the constraint
 * allows what either allows and drops the one a token leaves.
 */
function alternatives(request: GrammarRequest): GrammarRequest[] {
  if (request.kind !== 'tools' || request.required || !request.json) return [request];
  const { json, ...calls } = request;
  return [
    { ...calls, required: true },
    { kind: 'json', json },
  ];
}

/** Runs an XGrammar call; a failure becomes GrammarRejected with XGrammar's own words and the request field. */
async function attempt<T>(watched: WatchedXGrammar, param: string, run: () => Promise<T>): Promise<T> {
  watched.clearOutput();
  try {
    return await run();
  } catch (error) {
    throw new GrammarRejected(`The grammar for ${param} could not be compiled: ${watched.message(error)}`, param);
  }
}

const enforceable = (schema: unknown) => JSON.stringify(checkSchema(schema, false).enforceable);

/**
 * XGrammar 0.1.27 writes a string with a length bound as `[^"\\\r\n]{m,n}`, which lets raw control
 * characters through (JSON forbids them, so `JSON.parse` fails on the answer): they are excluded.
 */
const jsonEbnf = async (xg: XGrammar, schema: unknown, strict: boolean) =>
  (await xg.Testings._jsonSchemaToEBNF(enforceable(schema), true, undefined, undefined, strict, WHITESPACE)).replaceAll(
    String.raw`[^"\\\r\n]`,
    String.raw`[^"\\\x00-\x1f]`,
  );

/** Above any logit: lifts closing tokens over every other allowed one. */
const LIFT = 1e4;

/** The tokens any of the matchers allows next (XGrammar's bitmask: bit set = allowed). */
async function allowed(matchers: GrammarMatcher[]): Promise<Int32Array> {
  const [bits, ...more] = await Promise.all(matchers.map((matcher) => matcher.getNextTokenBitmask()));
  for (const other of more) for (let word = 0; word < bits!.length; word++) bits![word]! |= other[word]!;
  return bits!;
}

/**
 * Whether the grammar is in free text (`auto` tools outside a call): the end allowed with most of the
 * vocabulary. There is nothing to close there, so the closing stage lifts nothing (else it would end
 * every short answer at once).
 */
function freeText(bits: Int32Array, stopIds: number[], size: number): boolean {
  if (!stopIds.some((id) => (bits[id >>> 5]! >>> (id & 31)) & 1)) return false;
  let count = 0;
  for (const word of bits) {
    let value = word;
    for (; value; count++) value &= value - 1;
  }
  return count > size / 2;
}

/**
 * Constrains generation to what any of `matchers` accepts; a matcher that refuses a chosen token is
 * dropped. `failed` is told when XGrammar itself throws.
 */
function matcherConstraint(
  matchers: GrammarMatcher[],
  scores: Float32Array,
  stopIds: number[],
  failed: () => void,
): TokenConstraint {
  let alive = matchers;
  const fail = (error: unknown): never => {
    failed();
    throw error;
  };
  return {
    async mask(logits, closing) {
      const bits = await allowed(alive).catch(fail);
      closing &&= !freeText(bits, stopIds, logits.length);
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
      let kept: GrammarMatcher[];
      try {
        kept = alive.filter((matcher) => matcher.acceptToken(token));
      } catch (error) {
        return fail(error);
      }
      if (!kept.length) throw new Error(`The grammar refused token ${token}.`);
      for (const matcher of alive) if (!kept.includes(matcher)) matcher.dispose();
      alive = kept;
    },
    dispose: () => alive.forEach((matcher) => matcher.dispose()),
  };
}
