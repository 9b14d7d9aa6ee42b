import { sql } from 'kysely';
import type { Executor } from '../../store/executor.js';
import type { GithubConnectionRow } from '../../store/schema.js';
import type { ConnectionSource } from './source.js';

export type { GithubConnectionRow };

/** What a push names: the installation and repository (as `owner/repo` and as URLs) and the branch. */
export interface PushTarget {
  installationId: number | null;
  fullName: string | null;
  urls: string[];
  branch: string;
}

/** Queries of the module's table (migration 0025). */
export class GithubConnectionRepo {
  constructor(private readonly db: Executor) {}

  find(accountId: number, deploymentId: number) {
    return this.db
      .selectFrom('github_connection')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('deployment_id', '=', deploymentId)
      .executeTakeFirst();
  }

  /** The account's connections, within the deployments a scoped key reaches (null: all). */
  list(accountId: number, scope: readonly number[] | null) {
    return this.db
      .selectFrom('github_connection')
      .selectAll()
      .where('account_id', '=', accountId)
      .$if(scope !== null, (q) => q.where('deployment_id', 'in', [...scope!, 0]))
      .orderBy('deployment_id')
      .execute();
  }

  /** Connecting again replaces the source and forgets the last import's outcome. `sealedCredentials`: the source's, sealed. */
  upsert(
    accountId: number,
    deploymentId: number,
    source: ConnectionSource,
    sealedCredentials: string | null,
    imported: { commitSha: string; buildId: number | null },
  ) {
    const values = {
      repository: source.repository,
      repository_credentials: sealedCredentials,
      installation_id: source.installationId,
      branch: source.branch,
      directory: source.directory,
      last_commit_sha: imported.commitSha,
      last_build_id: imported.buildId,
      last_imported_at: new Date(),
      last_error: null,
      updated_at: new Date(),
    };
    return this.db
      .insertInto('github_connection')
      .values({ account_id: accountId, deployment_id: deploymentId, ...values })
      .onConflict((oc) => oc.column('deployment_id').doUpdateSet(values))
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async delete(accountId: number, deploymentId: number): Promise<boolean> {
    const deleted = await this.db
      .deleteFrom('github_connection')
      .where('account_id', '=', accountId)
      .where('deployment_id', '=', deploymentId)
      .executeTakeFirst();
    return Number(deleted.numDeletedRows) > 0;
  }

  /** Records an import's outcome, unless the connection was replaced meanwhile (it is another source now). */
  record(row: GithubConnectionRow, outcome: { commitSha: string; buildId: number | null } | { error: string }) {
    const set =
      'error' in outcome
        ? { last_error: outcome.error, updated_at: new Date() }
        : {
            last_commit_sha: outcome.commitSha,
            last_build_id: outcome.buildId,
            last_imported_at: new Date(),
            last_error: null,
            updated_at: new Date(),
          };
    return this.db
      .updateTable('github_connection')
      .set(set)
      .where('deployment_id', '=', row.deployment_id)
      .where('repository', '=', row.repository)
      .where('branch', '=', row.branch)
      .execute();
  }

  /**
   * Connections a push reaches, in every account: the App's one webhook serves them all. With an
   * installation, by its id and `owner/repo` (GitHub's names are case-insensitive); without one, by
   * a URL of the repository the push names (clone, ssh or html URL, as the user connected it).
   */
  matchPush(target: PushTarget) {
    return this.db
      .selectFrom('github_connection')
      .selectAll()
      .where('branch', '=', target.branch)
      .where((eb) => {
        const byUrl =
          target.urls.length > 0 ? eb.and([eb('installation_id', 'is', null), eb('repository', 'in', target.urls)]) : eb.val(false);
        if (target.installationId === null || target.fullName === null) return byUrl;
        const byInstallation = eb.and([
          eb('installation_id', '=', target.installationId),
          eb(sql<string>`lower(repository)`, '=', target.fullName.toLowerCase()),
        ]);
        return eb.or([byInstallation, byUrl]);
      })
      .orderBy('deployment_id')
      .execute();
  }
}
