import type { AgentOptions, AgentState, Decision, PendingCall } from './loop';
import type { ApprovalContext, ApproveHook } from '../../../protocol/approval';
import { randomId } from '../../../common/ids';

/** OpenAI's `mcp_approval_request` output item: a call waiting for the app's `mcp_approval_response`. */
export interface ApprovalRequestItem {
  id: string;
  type: 'mcp_approval_request';
  server_label: string;
  name: string;
  arguments: string;
}

/** OpenAI's `mcp_approval_response` input item. */
export interface ApprovalResponse {
  type: 'mcp_approval_response';
  approval_request_id: string;
  approve: boolean;
  reason?: string | null;
}

/** A run stopped for approvals, kept for the request that answers them. */
export interface PausedRun {
  state: AgentState;
  /** Approval request id (`mcpr_…`) → the call it asks about. */
  requests: Record<string, string>;
  /** The request's tools as it listed them (a continuation that lists none gets these). */
  tools?: unknown[];
}

/** The hooks in order (the run's, then the instance's): the first boolean decides; none → the app is asked. */
export function approver(
  hooks: (ApproveHook | undefined)[],
  route: ApprovalContext['route'],
  signal: AbortSignal,
): AgentOptions['approve'] {
  const asked = hooks.filter((hook): hook is ApproveHook => typeof hook === 'function');
  if (!asked.length) return undefined;
  return async (call, tool) => {
    for (const hook of asked) {
      const answer = await hook(call, { route, annotations: { ...tool.annotations }, signal });
      if (typeof answer === 'boolean') return { approve: answer, reason: answer ? null : 'denied by the approve hook' };
    }
    return undefined;
  };
}

/** The pending calls as approval request items, keeping the ids a call was already asked under. */
export function requestItems(pending: PendingCall[], requests: Record<string, string>, label: string) {
  const byCall = new Map(Object.entries(requests).map(([id, call]) => [call, id]));
  const kept: Record<string, string> = {};
  const items = pending.map((call): ApprovalRequestItem => {
    const id = byCall.get(call.id) ?? randomId('mcpr_');
    kept[id] = call.id;
    return { id, type: 'mcp_approval_request', server_label: label, name: call.name, arguments: call.arguments };
  });
  return { items, requests: kept };
}

/**
 * A copy of a paused run's state with the answers as decisions; the index of an answer naming no
 * request of this run, if any.
 */
export function answered(paused: PausedRun, answers: ApprovalResponse[]): { state: AgentState; unknown?: number } {
  const state = structuredClone(paused.state);
  for (const [i, answer] of answers.entries()) {
    const call = paused.requests[answer.approval_request_id];
    if (!call) return { state, unknown: i };
    state.decided[call] = { approve: answer.approve, reason: answer.reason ?? null } satisfies Decision;
  }
  return { state };
}
