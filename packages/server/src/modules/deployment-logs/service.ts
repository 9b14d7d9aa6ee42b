import type { ServiceContext } from '../module.js';
import type { DeploymentLogWriter, LogEntry } from './public.js';

/** Skeleton (issue 13): the logs helper replaces it. */
export class DeploymentLogService implements DeploymentLogWriter {
  constructor(readonly ctx: ServiceContext) {}
  async append(entry: LogEntry): Promise<void> {
    await this.ctx.db
      .insertInto('build_log')
      .values({
        account_id: entry.accountId,
        deployment_id: entry.deploymentId,
        build_id: entry.buildId ?? null,
        source: entry.source,
        pod: entry.pod,
        container: entry.container,
        level: entry.level,
        message: entry.message,
      })
      .execute();
  }
}
