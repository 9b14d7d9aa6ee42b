import { sql } from 'kysely';
import type { Executor } from '../../store/executor.js';

/** An engine version one of the account's deployments has run, and the channel it last ran on. */
export interface VersionRun {
  version: string;
  channel: string;
}

/**
 * Queries of the account's engine version history (migration 0021). Section 9 rule 3 lists "older
 * versions the account has run" next to the channel heads, so the history is kept per account and
 * outlives the deployment that ran a version.
 */
export class VersionHistory {
  constructor(private readonly db: Executor) {}

  /** Newest first: the order `versions` shows them in after the channel heads. */
  list(accountId: number): Promise<VersionRun[]> {
    return this.db
      .selectFrom('engine_version_run')
      .select(['version', 'channel'])
      .where('account_id', '=', accountId)
      .orderBy('last_run_at', 'desc')
      .orderBy('version', 'desc')
      .execute();
  }

  /** A deployment started running `version`: a version run before moves to the top of the history. */
  async record(accountId: number, deploymentId: number, run: VersionRun): Promise<void> {
    // clock_timestamp(), not now(): two changes in one transaction or one millisecond still order.
    const now = sql<Date>`clock_timestamp()`;
    await this.db
      .insertInto('engine_version_run')
      .values({ account_id: accountId, deployment_id: deploymentId, version: run.version, channel: run.channel, last_run_at: now })
      .onConflict((oc) =>
        oc.columns(['account_id', 'version']).doUpdateSet({ channel: run.channel, deployment_id: deploymentId, last_run_at: now }),
      )
      .execute();
  }
}
