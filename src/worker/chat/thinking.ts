import type { TokenConstraint } from '../../common/text/grammar/constraint';
import type { OutputText } from '../../common/text/output';
import { THINK_CLOSE, THINK_OPEN } from '../../common/text/reasoning';
import type { TextTokenizer } from '../../common/text/tokenizer';

/** The ids of `<think>` and `</think>`. */
export interface ThinkTags {
  open: number;
  close: number;
}

/** The thinking tags' ids where each is a single token of the vocabulary (Qwen3, DeepSeek-R1). */
export function thinkTags(tokenizer: TextTokenizer): ThinkTags | undefined {
  const open = tokenizer.id(THINK_OPEN);
  const close = tokenizer.id(THINK_CLOSE);
  return open === undefined || close === undefined ? undefined : { open, close };
}

function force(logits: Float32Array, id: number): void {
  logits.fill(-Infinity);
  logits[id] = 0;
}

/**
 * Masks the logits of a constrained answer. With `tags` (the answer thinks first) it opens with
 * `<think>`, thinks free of the grammar (and may not end there), and writes `</think>` once the
 * budget is nearly spent; the grammar applies from the first token after it. Returns whether the
 * grammar is to accept the token chosen next.
 */
export async function guide(
  logits: Float32Array,
  constraint: TokenConstraint,
  output: OutputText,
  tags: ThinkTags | undefined,
  eos: ReadonlySet<number>,
  closing: boolean,
): Promise<boolean> {
  if (tags && output.mayThink) {
    force(logits, tags.open);
    return false;
  }
  if (tags && output.thinking) {
    if (closing) force(logits, tags.close);
    else for (const id of eos) logits[id] = -Infinity;
    return false;
  }
  await constraint.mask(logits, closing);
  return true;
}
