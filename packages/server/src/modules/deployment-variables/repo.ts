import type { Insertable } from 'kysely';
import type { Executor } from '../../store/executor.js';
import type { DeploymentVariableTable } from '../../store/schema.js';

export type { DeploymentVariableRow } from '../../store/schema.js';

/**
 * Queries of the module's table (migration 0020). The store's handle joins the transaction open in
 * the caller's async context (store/transaction.ts), so a change and its rebuild commit together.
 */
export class DeploymentVariableRepo {
  constructor(private readonly db: Executor) {}

  list(deploymentId: number) {
    return this.db.selectFrom('deployment_variable').selectAll().where('deployment_id', '=', deploymentId).orderBy('name').execute();
  }

  upsert(rows: Insertable<DeploymentVariableTable>[]) {
    return this.db
      .insertInto('deployment_variable')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['deployment_id', 'name']).doUpdateSet((eb) => ({
          value_sealed: eb.ref('excluded.value_sealed'),
          secret: eb.ref('excluded.secret'),
          updated_at: new Date(),
        })),
      )
      .execute();
  }

  delete(deploymentId: number, name: string) {
    return this.db.deleteFrom('deployment_variable').where('deployment_id', '=', deploymentId).where('name', '=', name).execute();
  }
}
