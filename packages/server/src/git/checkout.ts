import { rm } from 'node:fs/promises';
import type { EgressPolicy } from '../egress/policy.js';
import { newCheckoutDir } from './checkout-dirs.js';
import { measureTree } from './files.js';
import { remoteAccess } from './remote-access.js';
import { GitSourceError, displayUrl, runGit, type GitAuth } from './run-git.js';

export { GitSourceError, type GitAuth, type GitFailure } from './run-git.js';
export { readFiles } from './files.js';

/** How much a checkout may take; a sync or import is refused past any of them. */
export interface CheckoutLimits {
  timeoutMs: number;
  maxBytes: number;
  maxFiles: number;
}

export const DEFAULT_CHECKOUT_LIMITS: CheckoutLimits = { timeoutMs: 120_000, maxBytes: 200 * 1024 * 1024, maxFiles: 20_000 };

export interface CheckoutRequest {
  /** What the remote may be: a local path or an internal host only where the operator allows it. */
  egress: EgressPolicy;
  /** Any URL git understands (https, ssh, git, file) or a local path. */
  url: string;
  /** A branch or tag name; never a commit SHA (section 4.8 rule 5). */
  ref: string;
  auth?: GitAuth;
  limits?: Partial<CheckoutLimits>;
  signal?: AbortSignal;
}

export interface Checkout {
  dir: string;
  commitSha: string;
  ref: string;
  refKind: 'branch' | 'tag';
  files: number;
  bytes: number;
}

export interface RemoteRefs {
  /** Branch name → commit SHA. */
  branches: Map<string, string>;
  /** Tag name → the commit it points at (peeled for annotated tags). */
  tags: Map<string, string>;
  /** The branch the remote's HEAD names, when it says. */
  head: string | null;
}

const SHA_LIKE = /^[0-9a-f]{7,40}$/i;

/** Why `ref` cannot be checked out by name, or null: empty and SHA-looking refs are refused before any git runs. */
export function refProblem(ref: string): GitSourceError | null {
  if (ref.trim() === '') return new GitSourceError('invalid', 'The ref is empty; name a branch or tag');
  if (SHA_LIKE.test(ref)) return new GitSourceError('sha-ref', `--ref takes a branch or tag, not a commit SHA: "${ref}"`);
  if (ref.startsWith('-')) return new GitSourceError('invalid', `Invalid ref "${ref}": it may not start with -`);
  return null;
}

/** Branches and tags of a remote, read without cloning, to check a ref before any work starts. */
export async function listRemoteRefs(
  egress: EgressPolicy,
  url: string,
  auth?: GitAuth,
  signal?: AbortSignal,
  timeoutMs = 30_000,
): Promise<RemoteRefs> {
  const remote = displayUrl(url);
  const pins = await remoteAccess(egress, url);
  const output = await runGit({ args: ['ls-remote', '--symref', '--', url], auth, signal, timeoutMs, remote, pins });
  const refs: RemoteRefs = { branches: new Map(), tags: new Map(), head: null };
  for (const line of output.split('\n')) {
    const symref = /^ref: refs\/heads\/(\S+)\s+HEAD$/.exec(line);
    if (symref) {
      refs.head = symref[1]!;
      continue;
    }
    const [sha, name] = line.split('\t');
    if (!sha || !name) continue;
    if (name.startsWith('refs/heads/')) refs.branches.set(name.slice('refs/heads/'.length), sha);
    else if (name.startsWith('refs/tags/')) {
      const tag = name.slice('refs/tags/'.length);
      // An annotated tag is listed twice; the `^{}` line is the commit it points at.
      if (tag.endsWith('^{}')) refs.tags.set(tag.slice(0, -3), sha);
      else if (!refs.tags.has(tag)) refs.tags.set(tag, sha);
    }
  }
  return refs;
}

/**
 * Clones `ref` shallowly into a fresh temporary directory, checks the limits, runs `fn` on it and
 * always removes the directory, whatever `fn` or git did. The ref is resolved against the remote
 * first, so a missing branch is named as such rather than as a clone failure.
 */
export async function withCheckout<T>(request: CheckoutRequest, fn: (checkout: Checkout) => Promise<T>): Promise<T> {
  const limits = { ...DEFAULT_CHECKOUT_LIMITS, ...request.limits };
  const problem = refProblem(request.ref);
  if (problem) throw problem;
  const remote = displayUrl(request.url);
  const deadline = Date.now() + limits.timeoutMs;
  const refs = await listRemoteRefs(request.egress, request.url, request.auth, request.signal, limits.timeoutMs);
  // Checked again for the clone: the answer of the name's resolver may have changed since.
  const pins = await remoteAccess(request.egress, request.url);
  const refKind = refs.branches.has(request.ref) ? 'branch' : refs.tags.has(request.ref) ? 'tag' : null;
  if (refKind === null) throw new GitSourceError('missing-ref', `Branch or tag "${request.ref}" not found in ${remote}`);
  const dir = await newCheckoutDir();
  try {
    const args = ['clone', '--quiet', '--depth', '1', '--single-branch', '--no-tags', '--branch', request.ref, '--', request.url, dir];
    const timeoutMs = Math.max(1_000, deadline - Date.now());
    await runGit({ args, auth: request.auth, signal: request.signal, timeoutMs, remote, pins });
    const commitSha = (await runGit({ args: ['rev-parse', 'HEAD'], cwd: dir, timeoutMs: 10_000, remote })).trim();
    const { files, bytes } = await measureTree(dir, limits, remote);
    return await fn({ dir, commitSha, ref: request.ref, refKind, files, bytes });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
