import type { EgressPolicy } from '../../egress/policy.js';
import { listRemoteRefs, type GitAuth } from '../../git/checkout.js';
import type { SecretBox } from '../../lib/secrets.js';
import { ApiError } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import { transaction } from '../../store/transaction.js';
import { DEFAULT_BRANCH } from '../data-model/public.js';
import type { ServiceContext } from '../module.js';
import type { GithubClient } from './client.js';
import type { GithubConnectionRepo, GithubConnectionRow } from './repo.js';
import { fetchModel, isTransient, splitCredentials, withCloneAccess, type ConnectionSource, type FetchedModel } from './source.js';

/** The trigger builds of an import carry (model_build.trigger). */
export const BUILD_TRIGGER = 'github';
/** A push that lands while an import runs is deduped into it; the import then looks again, this many times at most. */
const MAX_ROUNDS = 3;

export interface CommittedModel {
  commitId: number;
  changed: boolean;
  buildId: number | null;
}

/** A stored connection as the import reads it; a row from before migration 0031 has its credentials in the URL. */
export function sourceOf(row: GithubConnectionRow, secrets: SecretBox): ConnectionSource {
  const { repository, credentials } =
    row.repository_credentials === null
      ? splitCredentials(row.repository)
      : { repository: row.repository, credentials: JSON.parse(secrets.open(row.repository_credentials)) as GitAuth };
  return {
    repository,
    credentials,
    installationId: row.installation_id === null ? null : Number(row.installation_id),
    branch: row.branch,
    directory: row.directory,
  };
}

/**
 * Makes a fetched model the deploy branch's tree in one commit with a build queued, through the
 * data-model store (commitTree), in the caller's transaction. With `onlyIfChanged` an unchanged
 * tree makes neither a commit nor a build (a push that touched nothing under the folder).
 */
export async function commitModel(
  ctx: ServiceContext,
  principal: Principal | null,
  accountId: number,
  deploymentId: number,
  fetched: FetchedModel,
  message: string,
  onlyIfChanged: boolean,
): Promise<CommittedModel> {
  const dataModel = ctx.services.dataModel;
  const branch = await dataModel.branch(accountId, deploymentId, DEFAULT_BRANCH);
  const paths = [...fetched.files.keys()];
  const hashes = await dataModel.storeBlobs(accountId, [...fetched.files.values()]);
  const entries = Object.fromEntries(paths.map((path, i) => [path, hashes[i]!]));
  if (onlyIfChanged && sameTree(await dataModel.treeAt(accountId, Number(branch.head_commit_id)), entries)) {
    return { commitId: Number(branch.head_commit_id), changed: false, buildId: null };
  }
  const result = await dataModel.commitTree(principal, branch, {
    entries,
    baseCommitId: Number(branch.head_commit_id),
    message,
    build: BUILD_TRIGGER,
  });
  return { commitId: result.commitId, changed: result.changed, buildId: result.buildId };
}

export const importMessage = (source: ConnectionSource, commitSha: string) =>
  `Import ${source.repository} ${source.branch} at ${commitSha.slice(0, 7)} from GitHub`;

/**
 * The import a push or `plinth github sync` asks for (job `github.import`): fetch, commit if the
 * model changed, record the outcome on the connection. The user's mistakes (a deleted branch,
 * revoked access, no files) are recorded and end the job; GitHub or network trouble is recorded
 * and thrown, so the job runner tries again later.
 */
export async function importConnection(
  ctx: ServiceContext,
  github: GithubClient,
  repo: GithubConnectionRepo,
  accountId: number,
  deploymentId: number,
  signal?: AbortSignal,
): Promise<unknown> {
  const imported: Array<{ commitSha: string; buildId: number | null }> = [];
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const row = await repo.find(accountId, deploymentId);
    if (!row) return { skipped: `deployment ${deploymentId} is no longer connected` };
    const source = sourceOf(row, ctx.secrets);
    let fetched: FetchedModel;
    try {
      fetched = await fetchModel(github, ctx.egress, source, signal);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await repo.record(row, { error: message });
      if (isTransient(error) || !(error instanceof ApiError)) throw error;
      return { failed: message, imported };
    }
    const committed = await transaction(ctx.db, async () => {
      const result = await commitModel(ctx, null, accountId, deploymentId, fetched, importMessage(source, fetched.commitSha), true);
      await repo.record(row, {
        commitSha: fetched.commitSha,
        buildId: result.buildId ?? (row.last_build_id === null ? null : Number(row.last_build_id)),
      });
      return result;
    });
    imported.push({ commitSha: fetched.commitSha, buildId: committed.buildId });
    const head = await headOf(github, ctx.egress, source, signal);
    if (head === null || head === fetched.commitSha) break;
  }
  return { imported };
}

/** The branch's head now, to tell whether a push arrived while the import ran; null when it cannot be read. */
async function headOf(github: GithubClient, egress: EgressPolicy, source: ConnectionSource, signal?: AbortSignal): Promise<string | null> {
  try {
    const refs = await withCloneAccess(github, source, ({ url, auth }) => listRemoteRefs(egress, url, auth, signal));
    return refs.branches.get(source.branch) ?? null;
  } catch {
    return null;
  }
}

function sameTree(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}
