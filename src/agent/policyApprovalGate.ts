// Applies `tandem.tools.autoApprove` in front of whatever asks the user (the
// host's diff editor and dialogs, or a test's scripted answers).
import type { ApprovalGate, ApprovalRequest } from '../tools/tool';

export type AutoApprovePolicy = 'readOnly' | 'all' | 'none';

export function needsAsking(request: ApprovalRequest, policy: AutoApprovePolicy): boolean {
  // Deleting a file always asks, whatever the policy.
  if (request.kind === 'edit' && request.after === undefined) return true;
  if (policy === 'all') return false;
  if (policy === 'none') return true;
  return request.kind === 'edit' || !request.readOnly;
}

export function createPolicyApprovalGate(
  policy: AutoApprovePolicy,
  ask: (request: ApprovalRequest, signal: AbortSignal) => Promise<boolean>,
): ApprovalGate {
  return {
    request: async (request, signal) => (needsAsking(request, policy) ? ask(request, signal) : true),
  };
}
