import { GitSourceError, readFiles, withCheckout, type GitAuth } from '../../git/checkout.js';
import type { EgressPolicy } from '../../egress/policy.js';
import { ApiError, badRequest } from '../../http/errors.js';
import { checkContent, checkPath } from '../data-model/public.js';
import { badGateway, type GithubClient } from './client.js';

/** Where a connection's files come from. */
export interface ConnectionSource {
  /** Without credentials: an https URL's user and password are in `credentials`. */
  repository: string;
  credentials: GitAuth | null;
  installationId: number | null;
  branch: string;
  /** null: `model`. */
  directory: string | null;
}

/** A repository's data model at the head of a branch, with the paths it gets on the deploy branch. */
export interface FetchedModel {
  commitSha: string;
  cloneUrl: string;
  /** `model/<path in the folder>` → content. */
  files: Map<string, string>;
}

export const DEFAULT_DIRECTORY = 'model';
/** The root of the data model on a deploy branch (data-model paths are `model/…`). */
const MODEL_ROOT = 'model';

/** What reaching a repository takes: where it is, and the credentials or the installation that open it. */
export type RepositoryAccess = Pick<ConnectionSource, 'repository' | 'credentials' | 'installationId'>;

/** A remote as git is handed it: the URL (never with credentials in it) and what to authenticate with. */
export interface CloneRemote {
  url: string;
  auth?: GitAuth;
}

/**
 * What to clone and how: with an installation, the repository's `clone_url` as GitHub gives it
 * (github.com or an Enterprise host) and `x-access-token` with a fresh installation token; without
 * one, the URL or path as the user gave it, which git alone resolves (ssh keys, a local path).
 */
export async function resolveClone(github: GithubClient, source: RepositoryAccess): Promise<CloneRemote> {
  if (source.installationId === null) return { url: source.repository, ...(source.credentials ? { auth: source.credentials } : {}) };
  const repo = await github.getRepository(source.installationId, source.repository);
  const token = await github.installationToken(source.installationId);
  return { url: repo.clone_url, auth: { username: 'x-access-token', password: token } };
}

/**
 * Runs git work (`fn`) against the remote a source resolves to. A token git was refused with
 * (revoked before it expired) is forgotten, so the next access asks GitHub for a fresh one
 * instead of handing the dead one out until it would have expired.
 */
export async function withCloneAccess<T>(
  github: GithubClient,
  source: RepositoryAccess,
  fn: (remote: CloneRemote) => Promise<T>,
): Promise<T> {
  const remote = await resolveClone(github, source);
  try {
    return await fn(remote);
  } catch (error) {
    if (error instanceof GitSourceError && error.reason === 'auth' && source.installationId !== null)
      github.forgetToken(source.installationId);
    throw error;
  }
}

/**
 * Clones the branch into a sandboxed temporary checkout and reads the data-model folder. Whatever
 * goes wrong reading the source (unreachable, refused credentials, no such branch or folder, no
 * files, a path or file the data model cannot hold) is a 400 naming it, before anything is written.
 */
export async function fetchModel(
  github: GithubClient,
  egress: EgressPolicy,
  source: ConnectionSource,
  signal?: AbortSignal,
): Promise<FetchedModel> {
  const folder = source.directory ?? DEFAULT_DIRECTORY;
  try {
    return await withCloneAccess(github, source, ({ url, auth }) =>
      withCheckout({ egress, url, ref: source.branch, ...(auth ? { auth } : {}), ...(signal ? { signal } : {}) }, async (checkout) => {
        const read = await readFiles(checkout.dir, folder);
        const where = `folder "${folder || '.'}" of ${displayName(source)} at branch ${source.branch}`;
        if (read.size === 0) throw badRequest(`No data model files in ${where}`);
        const files = new Map<string, string>();
        for (const [path, content] of read) {
          const target = checkPath(`${MODEL_ROOT}/${path}`);
          checkContent(target, content);
          files.set(target, content);
        }
        return { commitSha: checkout.commitSha, cloneUrl: withoutCredentials(url), files };
      }),
    );
  } catch (error) {
    if (error instanceof GitSourceError) {
      throw error.reason === 'timeout' ? badGateway(error.message) : badRequest(error.message);
    }
    throw error;
  }
}

/** Whether an import failure is worth trying again later (GitHub or the network), not the user's input. */
export function isTransient(error: unknown): boolean {
  return error instanceof ApiError && error.status >= 500;
}

export function displayName(source: Pick<ConnectionSource, 'repository'>): string {
  return withoutCredentials(source.repository);
}

// The authority's last `@` ends the user information: a password may hold an unencoded `@`.
const HTTP_USER_INFO = /^(https?:\/\/)([^/?#]*)@([^/?#]*)/i;

/**
 * An http(s) URL's user and password, taken out of it: they travel to git as a header and are
 * stored sealed, while the URL (what views, messages and webhook matching use) carries none. A
 * token alone (`https://<token>@host/…`) is a user without a password, as GitHub takes it.
 */
export function splitCredentials(repository: string): { repository: string; credentials: GitAuth | null } {
  const match = HTTP_USER_INFO.exec(repository);
  if (!match) return { repository, credentials: null };
  const [whole, scheme, userInfo, host] = match;
  const colon = userInfo!.indexOf(':');
  const [username, password] = colon < 0 ? [userInfo!, ''] : [userInfo!.slice(0, colon), userInfo!.slice(colon + 1)];
  const credentials = { username: decodeUserInfo(username), password: decodeUserInfo(password) };
  return { repository: `${scheme}${host}${repository.slice(whole!.length)}`, credentials };
}

function decodeUserInfo(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw badRequest('The user or password in the repository URL has a malformed %-escape');
  }
}

/** A URL as messages and views show it: a password in it never leaves the server. */
export function withoutCredentials(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//');
}
