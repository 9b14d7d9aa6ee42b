import type { Kysely, Updateable } from 'kysely';
import type { Database, DbtIntegrationRow, DbtSyncRow, DbtSyncStageRecord, DbtSyncTable } from '../../store/schema.js';

export type SyncUpdate = Omit<Updateable<DbtSyncTable>, 'stages' | 'files'> & {
  stages?: DbtSyncStageRecord[];
  files?: Array<{ path: string; cube: string }>;
};

/** The dbt module's two tables; every query names the account, so one account never reaches another's rows. */
export class DbtRepo {
  constructor(private readonly db: Kysely<Database>) {}

  integration(accountId: number, deploymentId: number): Promise<DbtIntegrationRow | undefined> {
    return this.db
      .selectFrom('dbt_integration')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('deployment_id', '=', deploymentId)
      .executeTakeFirst();
  }

  /** `credentials`: the repository URL's, sealed; connecting again replaces them (or drops them). */
  saveIntegration(values: {
    accountId: number;
    deploymentId: number;
    repository: string;
    installationId: number | null;
    credentials: string | null;
    folder: string;
    branch: string;
  }) {
    const row = {
      repository: values.repository,
      installation_id: values.installationId,
      repository_credentials: values.credentials,
      folder: values.folder,
      branch: values.branch,
    };
    return this.db
      .insertInto('dbt_integration')
      .values({ ...row, account_id: values.accountId, deployment_id: values.deploymentId })
      .onConflict((oc) => oc.column('deployment_id').doUpdateSet({ ...row, updated_at: new Date() }))
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async deleteIntegration(accountId: number, deploymentId: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('dbt_integration')
      .where('account_id', '=', accountId)
      .where('deployment_id', '=', deploymentId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  insertSync(values: {
    accountId: number;
    deploymentId: number;
    repository: string;
    installationId: number | null;
    folder: string;
    ref: string;
    stages: DbtSyncStageRecord[];
  }): Promise<DbtSyncRow> {
    return this.db
      .insertInto('dbt_sync')
      .values({
        account_id: values.accountId,
        deployment_id: values.deploymentId,
        repository: values.repository,
        installation_id: values.installationId,
        folder: values.folder,
        ref: values.ref,
        commit_sha: null,
        stage: null,
        stages: JSON.stringify(values.stages),
        branch_name: null,
        build_id: null,
        error: null,
        job_id: null,
        worker_id: null,
        finished_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  sync(accountId: number, deploymentId: number, id: number): Promise<DbtSyncRow | undefined> {
    return this.db
      .selectFrom('dbt_sync')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('deployment_id', '=', deploymentId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  syncById(id: number): Promise<DbtSyncRow | undefined> {
    return this.db.selectFrom('dbt_sync').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * Updates a sync only while it is in one of `states` (and, with `notCancelled`, while nobody asked
   * to cancel it): the compare-and-swap that keeps a cancel and the job's own progress from both
   * winning. Answers the row after the update, or undefined when the sync was no longer there.
   */
  update(id: number, values: SyncUpdate, states: DbtSyncRow['state'][], notCancelled = false): Promise<DbtSyncRow | undefined> {
    const { stages, files, ...rest } = values;
    return this.db
      .updateTable('dbt_sync')
      .set({
        ...rest,
        ...(stages ? { stages: JSON.stringify(stages) } : {}),
        ...(files ? { files: JSON.stringify(files) } : {}),
      })
      .where('id', '=', id)
      .where('state', 'in', states)
      .$if(notCancelled, (q) => q.where('cancel_requested', '=', false))
      .returningAll()
      .executeTakeFirst();
  }
}
