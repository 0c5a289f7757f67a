import packageUrl from '@mlc-ai/web-xgrammar?url';

/** XGrammar compiled to WASM (the wasm is inlined in the module, about 1 MB: loaded on first use). */
export type XGrammar = typeof import('@mlc-ai/web-xgrammar');

let instances = 0;

/**
 * A fresh XGrammar: the package's file imported under a URL of its own (`?instance=n`), so the
 * browser evaluates a new module whose WASM starts anew. Its WASM build does not recover after a
 * failed check or a C++ exception (its stack is not restored), and the package has no reset: after
 * a failure the caller drops the instance and loads another. The file is a UMD bundle that, run as
 * a module, sets `globalThis.xgrammar`; a bundler may instead hand it back as a namespace.
 */
export const loadXGrammar = (): Promise<XGrammar> =>
  serially(async () => {
    const url = `${packageUrl}${packageUrl.includes('?') ? '&' : '?'}instance=${++instances}`;
    const module = (await import(/* @vite-ignore */ url)) as Partial<XGrammar> & { default?: Partial<XGrammar> };
    const global = globalThis as { xgrammar?: Partial<XGrammar> };
    const found = [module, module.default, global.xgrammar].find((candidate) => candidate?.GrammarCompiler);
    if (!found) throw new Error('@mlc-ai/web-xgrammar did not load');
    return found as XGrammar;
  });

let queue: Promise<unknown> = Promise.resolve();

/** Runs `task` after every earlier one: loads and starts swap globals (`globalThis.xgrammar`, the hooks below). */
function serially<T>(task: () => Promise<T>): Promise<T> {
  const result = queue.then(task);
  queue = result.catch(() => undefined);
  return result;
}

/**
 * One started XGrammar with what its WASM build gives no API for: its memory (a C++ exception
 * reaches JS as a bare pointer into it) and its error lines (a failed check prints
 * `[FATAL] file:line: message` to `console.error`, bound when the module starts, then aborts with a
 * message-less `Aborted()`).
 */
export interface WatchedXGrammar {
  xg: XGrammar;
  /** Forgets earlier error output (call before an XGrammar call whose failure is to be explained). */
  clearOutput(): void;
  /** A readable message for anything this XGrammar threw: an Error, a C++ exception pointer, or an abort after a failed check. */
  message(error: unknown): string;
}

/**
 * Starts XGrammar's WASM while watching for its memory and routing its error output through a
 * recorder that still prints; a module already started elsewhere is left as it is.
 */
export const watchXGrammar = (xg: XGrammar): Promise<WatchedXGrammar> =>
  serially(async () => {
    const watched: { memory?: WebAssembly.Memory; lines: string[] } = { lines: [] };
    const wasm = WebAssembly as { instantiate: (...args: unknown[]) => Promise<unknown> };
    const instantiate = wasm.instantiate;
    const print = console.error;
    wasm.instantiate = async (...args) => {
      const result = (await instantiate.apply(WebAssembly, args)) as { instance?: WebAssembly.Instance };
      const exports = (result.instance ?? (result as WebAssembly.Instance)).exports ?? {};
      watched.memory ??= Object.values(exports).find((value) => value instanceof WebAssembly.Memory);
      return result;
    };
    console.error = (...args: unknown[]) => {
      watched.lines = [...watched.lines.slice(-3), args.map(String).join(' ')];
      print.apply(console, args);
    };
    try {
      (await xg.Grammar.fromEBNF('root ::= "a"')).dispose();
    } finally {
      wasm.instantiate = instantiate;
      console.error = print;
    }
    return {
      xg,
      clearOutput: () => void (watched.lines = []),
      message: (error) => xgrammarMessage(watched, error),
    };
  });

const MAX_MESSAGE = 2048;

/** The message of a libc++ `std::runtime_error` (or `logic_error`) at `pointer`: its second word points at the text. */
function exceptionText(memory: WebAssembly.Memory, pointer: number): string | undefined {
  const bytes = new Uint8Array(memory.buffer);
  if (!Number.isInteger(pointer) || pointer <= 0 || pointer + 8 > bytes.length) return undefined;
  const at = new DataView(memory.buffer).getUint32(pointer + 4, true);
  if (at <= 0 || at >= bytes.length) return undefined;
  const window = bytes.subarray(at, at + MAX_MESSAGE);
  const end = window.indexOf(0);
  if (end <= 0) return undefined;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(window.subarray(0, end));
    return [...text].some((ch) => ch < ' ' && !'\n\r\t'.includes(ch)) ? undefined : text;
  } catch {
    return undefined;
  }
}

/** A `[FATAL] /path/file.cc:123: message` line as its message. */
const fatalText = (line: string | undefined) =>
  line?.startsWith('[FATAL]') ? line.replace(/^\[FATAL\]\s*\S+:\d+:\s*/, '').trim() : undefined;

function xgrammarMessage(watched: { memory?: WebAssembly.Memory; lines: string[] }, error: unknown): string {
  const fatal = fatalText(watched.lines.findLast((line) => line.startsWith('[FATAL]')));
  if (typeof error === 'number') {
    const text = watched.memory && exceptionText(watched.memory, error);
    return text ?? fatal ?? `XGrammar failed without a message (C++ exception ${error})`;
  }
  if (error instanceof Error) return /^Aborted\(/.test(error.message) && fatal ? fatal : error.message;
  return String(error);
}
