import type { EgressPolicy } from '../../egress/policy.js';
import { badRequest } from '../../http/errors.js';
import { GitSourceError, listRemoteRefs, type RemoteRefs } from '../../git/checkout.js';
import { displayUrl } from '../../git/run-git.js';

/** How long asking a remote for its refs may take before a request gives up on it. */
export const REMOTE_TIMEOUT_MS = 30_000;

/** The remote's branches and tags; an unreachable repository or bad credentials are a 400 with git's reason. */
export async function remoteRefs(egress: EgressPolicy, url: string): Promise<RemoteRefs> {
  try {
    return await listRemoteRefs(egress, url, undefined, undefined, REMOTE_TIMEOUT_MS);
  } catch (error) {
    if (error instanceof GitSourceError) throw badRequest(error.message);
    throw error;
  }
}

/** 400 `Branch or tag "x" not found in <url>` unless the ref is one of the remote's branches (or tags). */
export function checkRefExists(refs: RemoteRefs, url: string, ref: string, kind: 'branch' | 'branch or tag'): void {
  if (refs.branches.has(ref) || (kind === 'branch or tag' && refs.tags.has(ref))) return;
  const known = [...refs.branches.keys()].slice(0, 10).join(', ');
  const what = kind === 'branch' ? 'Branch' : 'Branch or tag';
  throw badRequest(`${what} "${ref}" not found in ${displayUrl(url)}${known ? ` (its branches: ${known})` : ' (it has no branches)'}`);
}

/** The branch the remote's HEAD names (what a clone checks out), else `main` when it has one, else null. */
export function remoteDefaultBranch(refs: RemoteRefs): string | null {
  if (refs.head && refs.branches.has(refs.head)) return refs.head;
  return refs.branches.has('main') ? 'main' : null;
}
