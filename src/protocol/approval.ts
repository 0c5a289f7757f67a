/** A tool call waiting for approval: the model's call, its parsed arguments, and the tool's hints. */
export interface ApprovalCall {
  /** The call's id (`call_…`), as in the run's steps. */
  id: string;
  name: string;
  /** The arguments as the model wrote them (JSON text), and parsed (already checked against the schema). */
  arguments: string;
  args: Record<string, unknown>;
}

export interface ApprovalContext {
  /** The route the run came from. */
  route: '/agents/run' | '/responses';
  /** The tool's annotations as registered (`readOnlyHint`, …). */
  annotations: Record<string, unknown>;
  /** Aborts when the run is aborted. */
  signal: AbortSignal;
}

/**
 * Decides a tool call: true runs it, false denies it (the model gets the denial as the call's
 * result), undefined leaves it to the app (the run stops with an approval request).
 */
export type ApproveHook = (
  call: ApprovalCall,
  context: ApprovalContext,
) => boolean | undefined | Promise<boolean | undefined>;
