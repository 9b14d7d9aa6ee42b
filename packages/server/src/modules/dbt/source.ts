import type { EgressPolicy } from '../../egress/policy.js';
import { badRequest } from '../../http/errors.js';
import { GitSourceError, listRemoteRefs, type GitAuth, type RemoteRefs } from '../../git/checkout.js';
import { displayUrl } from '../../git/run-git.js';
import type { SecretBox } from '../../lib/secrets.js';
import type { DbtIntegrationRow, DbtSyncRow } from '../../store/schema.js';
import { checkInstallationRepository, splitCredentials, withCloneAccess, type RepositoryAccess } from '../github/public.js';
import type { GithubService } from '../github/service.js';

/** How long asking a remote for its refs may take before a request gives up on it. */
export const REMOTE_TIMEOUT_MS = 30_000;

type GithubClient = GithubService['client'];

/**
 * The repository a connect request names, taken as `github connect` takes it: with
 * `installationId`, `owner/repo` of that installation; else a URL or a path, an https URL's user
 * and password (or token) split off to be stored sealed and sent as a header.
 */
export function connectSource(
  input: { repository: string; installationId?: number | undefined },
  githubConfigured: boolean,
): RepositoryAccess {
  if (input.installationId !== undefined) {
    return {
      repository: checkInstallationRepository(input.repository, githubConfigured),
      credentials: null,
      installationId: input.installationId,
    };
  }
  const trimmed = input.repository.trim();
  if (trimmed === '') throw badRequest('repository is empty; give a Git URL or a local path');
  const { repository, credentials } = splitCredentials(trimmed);
  // Only an http(s) URL's password can be kept sealed and sent as a header; any other would be stored as typed.
  if (/^[a-z][a-z0-9+.-]*:\/\/[^/@]*:[^/@]*@/i.test(repository)) {
    throw badRequest(
      "repository must not carry a password in an ssh://, git:// or file:// URL; use an SSH URL with the server's key, or an https URL (whose password or token is stored sealed)",
    );
  }
  return { repository, credentials, installationId: null };
}

const installationOf = (row: { installation_id: number | null }) => (row.installation_id === null ? null : Number(row.installation_id));

/** How an integration reaches its repository, its credentials opened from their seal. */
export function integrationAccess(row: DbtIntegrationRow, secrets: SecretBox): RepositoryAccess {
  const credentials = row.repository_credentials === null ? null : (JSON.parse(secrets.open(row.repository_credentials)) as GitAuth);
  return { repository: row.repository, credentials, installationId: installationOf(row) };
}

/**
 * How a sync reaches its repository: through the installation it recorded, and with the
 * credentials its integration holds while that still names the same repository. The credentials
 * are stored once, on the integration, so a disconnect takes them away from queued syncs too, and
 * a reconnect with a new token gives it to them.
 */
export function syncAccess(row: DbtSyncRow, integration: DbtIntegrationRow | undefined, secrets: SecretBox): RepositoryAccess {
  const installationId = installationOf(row);
  const same = integration !== undefined && integration.repository === row.repository && installationOf(integration) === installationId;
  return { repository: row.repository, installationId, credentials: same ? integrationAccess(integration, secrets).credentials : null };
}

/**
 * The remote's branches and tags, and the URL it was asked at (an installation's clone URL); an
 * unreachable repository, bad credentials or an installation that cannot reach it are a 400.
 */
export async function remoteRefs(
  github: GithubClient,
  egress: EgressPolicy,
  source: RepositoryAccess,
): Promise<{ refs: RemoteRefs; url: string }> {
  try {
    return await withCloneAccess(github, source, async ({ url, auth }) => ({
      url,
      refs: await listRemoteRefs(egress, url, auth, undefined, REMOTE_TIMEOUT_MS),
    }));
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
