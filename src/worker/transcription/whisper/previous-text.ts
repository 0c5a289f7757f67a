import type { WhisperConfig } from './config';

/**
 * The previous text a pass is prompted with (`<|startofprev|>` then the tokens), as OpenAI's
 * `transcribe()` keeps it: the request's prompt, then every kept pass's tokens, the latest
 * maxLength / 2 − 1 of them; forgotten after a pass decoded above temperature 0.5, and after
 * every pass when conditioning on previous text is off.
 */
export class PreviousText {
  private tokens: number[];

  constructor(
    prompt: readonly number[],
    private readonly condition: boolean,
    private readonly config: Pick<WhisperConfig, 'ids' | 'maxLength'>,
  ) {
    this.tokens = [...prompt];
  }

  prompt(): number[] {
    if (this.tokens.length === 0) return [];
    return [this.config.ids.startOfPrev, ...this.tokens.slice(-(Math.floor(this.config.maxLength / 2) - 1))];
  }

  add(tokens: readonly number[], temperature: number): void {
    this.tokens = !this.condition || temperature > 0.5 ? [] : [...this.tokens, ...tokens];
  }
}
