import type { ChatEngine, ChatOutcome, ChatParams } from '../../../protocol/chat';
import { startChat } from '../chat/chat';
import { CitationFilter } from './citations';

/** A grounded answer being written: its text as it comes, markers of passages that do not exist removed. */
export interface GroundedAnswer {
  /** The answer's pieces (never empty strings). */
  text: AsyncIterable<string>;
  done: Promise<ChatOutcome>;
  /** The passage numbers the model cited that the prompt did not hold (complete once `text` ends). */
  invented: ReadonlySet<number>;
  stop: AbortController;
}

/**
 * Runs the grounded chat (`groundedPrompt`'s messages) on `engine` and resolves once it has produced
 * its first output (or failed), so that a failure before any output reaches the caller whole.
 */
export async function groundedAnswer(
  engine: ChatEngine,
  params: ChatParams,
  passages: number,
  signal: AbortSignal,
): Promise<GroundedAnswer> {
  const { deltas, done, stop } = await startChat(engine, params, signal);
  const filter = new CitationFilter(passages);
  async function* text(): AsyncGenerator<string> {
    for await (const delta of deltas) {
      const piece = delta.content ? filter.push(delta.content) : '';
      if (piece) yield piece;
    }
    const rest = filter.end();
    if (rest) yield rest;
  }
  return { text: text(), done, invented: filter.invented, stop };
}
