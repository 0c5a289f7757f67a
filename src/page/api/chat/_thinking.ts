import { badRequest } from '../http/errors';

/** OpenAI's `reasoning_effort` values (`none` as GPT-5.1 takes it). */
export const REASONING_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high'] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

/** One way a request says whether to think: the field it came from and what it asks (absent: nothing). */
export interface ThinkingSwitch {
  param: string;
  on: boolean | undefined;
}

/** **Choice**: the local models think or not, with no budget; `none` and `minimal` ask for no thinking. */
export const effortThinks = (effort: ReasoningEffort | null | undefined): boolean | undefined =>
  effort == null ? undefined : effort !== 'none' && effort !== 'minimal';

/**
 * Whether the request turns the model's thinking on (off when no switch is given); switches that
 * disagree are a 400 naming both.
 */
export function thinkingOf(switches: ThinkingSwitch[]): boolean {
  const given = switches.filter((entry) => entry.on !== undefined);
  const [first, other] = [given[0], given.find((entry) => entry.on !== given[0]?.on)];
  if (first && other)
    throw badRequest(
      `${first.param} turns thinking ${first.on ? 'on' : 'off'} but ${other.param} turns it ${other.on ? 'on' : 'off'}: send one, or make them agree.`,
      other.param,
    );
  return first?.on ?? false;
}
