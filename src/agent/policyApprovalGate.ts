// Decides which calls run without asking: a sensitive path or a delete always
// asks; a call the user's `tandem.tools.alwaysAllow` covers runs; otherwise
// `tandem.tools.autoApprove` is the default. In front of whatever asks the
// user (the panel's card and the diff editor, an AG-UI interrupt, a test).
import type { AlwaysAllowOffer, ApprovalGate, ApprovalRequest } from '../tools/tool';

export type AutoApprovePolicy = 'readOnly' | 'all' | 'none';

export interface ApprovalPolicy {
  readonly autoApprove: AutoApprovePolicy;
  /** Tool names, or `run_command:<prefix>` (the tool matches those itself). */
  readonly alwaysAllow: readonly string[];
}

function asPolicy(policy: AutoApprovePolicy | ApprovalPolicy): ApprovalPolicy {
  return typeof policy === 'string' ? { autoApprove: policy, alwaysAllow: [] } : policy;
}

function isDelete(request: ApprovalRequest): boolean {
  return request.kind === 'edit' && request.after === undefined;
}

/** What "Always allow" would remember for this request, or undefined when it is not offered. */
export function alwaysAllowOffer(request: ApprovalRequest): AlwaysAllowOffer | undefined {
  if (request.sensitive === true || isDelete(request) || request.toolName === 'delete_file') return undefined;
  if (request.alwaysAllow === null) return undefined;
  return request.alwaysAllow ?? { key: request.toolName, label: `Always allow ${request.toolName}` };
}

export function isAlwaysAllowed(request: ApprovalRequest, entries: readonly string[]): boolean {
  if (entries.length === 0) return false;
  return request.allowedBy ? request.allowedBy(entries) : entries.includes(request.toolName);
}

export function needsAsking(request: ApprovalRequest, given: AutoApprovePolicy | ApprovalPolicy): boolean {
  const policy = asPolicy(given);
  // Sensitive paths and deletes always ask, whatever the settings say.
  if (request.sensitive === true || isDelete(request)) return true;
  if (isAlwaysAllowed(request, policy.alwaysAllow)) return false;
  if (policy.autoApprove === 'all') return request.alwaysAsks === true;
  if (policy.autoApprove === 'none') return true;
  return request.kind === 'edit' || !request.readOnly;
}

/** `policy` may be a function so a run sees an "Always allow" chosen earlier in the same run. */
export function createPolicyApprovalGate(
  policy: AutoApprovePolicy | ApprovalPolicy | (() => ApprovalPolicy),
  ask: (request: ApprovalRequest, signal: AbortSignal) => Promise<boolean>,
): ApprovalGate {
  return {
    request: async (request, signal) => (needsAsking(request, typeof policy === 'function' ? policy() : policy) ? ask(request, signal) : true),
  };
}
