import { toIso } from '../../http/common-schemas.js';
import { notFound } from '../../http/errors.js';
import type { BuildLogRow } from '../../store/schema.js';
import type { ServiceContext } from '../module.js';
import type { DeploymentLogWriter, LogEntry } from './public.js';
import { FollowStream, type FollowTiming } from './follow.js';
import { LogNotifications, notifyLine } from './notifications.js';
import { DEFAULT_LOG_LIMIT, MAX_LOG_LIMIT, type DeploymentLogLine, type DeploymentLogQuery } from './schemas.js';

/** Which lines of one deployment a reader wants. */
export interface LogFilter {
  accountId: number;
  deploymentId: number;
  source?: 'production' | 'dev' | undefined;
  pod?: string | undefined;
  container?: string | undefined;
}

/**
 * A deployment's logs, kept in `build_log`. Every server process shares the table, and each line
 * written is announced on the store's notifications, so a line written by any process reaches
 * every follower without a follower querying the table in between.
 */
export class DeploymentLogService implements DeploymentLogWriter {
  /** The follows this process serves, ended when the app closes (a follow never ends by itself). */
  readonly follows = new Set<FollowStream>();
  readonly notifications: LogNotifications;
  /** How follows time their reads; tests lengthen the backstop re-read so that only a notification delivers a line. */
  followTiming: FollowTiming = {};

  constructor(readonly ctx: ServiceContext) {
    this.notifications = new LogNotifications(ctx.store);
  }

  /** Writes a line and, in the same statement, tells every process's follows of the deployment (on commit). */
  async append(entry: LogEntry): Promise<void> {
    await this.ctx.db
      .with('line', (db) =>
        db
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
          .returning('id'),
      )
      .selectFrom('line')
      .select(notifyLine(entry.accountId, entry.deploymentId).as('notified'))
      .execute();
  }

  /** What getDeploymentLogs answers (and a follow starts with): see the `since` of the query schema. */
  async list(accountId: number, deploymentId: number, query: DeploymentLogQuery): Promise<DeploymentLogLine[]> {
    if (!(await this.ctx.services.deployments.find(accountId, deploymentId))) throw notFound(`Deployment ${deploymentId} not found`);
    const filter = { accountId, deploymentId, source: query.source, pod: query.pod, container: query.container };
    const limit = query.limit ?? DEFAULT_LOG_LIMIT;
    if (query.since !== undefined) return this.after(filter, query.since, limit);
    const newest = await this.select(filter).orderBy('id', 'desc').limit(limit).execute();
    return newest.reverse().map(toLine);
  }

  /** A follow's body: the backlog a list gives, then every new line (see FollowStream). */
  async follow(accountId: number, deploymentId: number, query: DeploymentLogQuery): Promise<FollowStream> {
    await this.notifications.ready();
    const backlog = await this.list(accountId, deploymentId, query);
    const filter = { accountId, deploymentId, source: query.source, pod: query.pod, container: query.container };
    const stream = new FollowStream({
      ...this.followTiming,
      backlog,
      cursor: backlog.at(-1)?.id ?? query.since ?? 0,
      read: (cursor) => this.after(filter, cursor, MAX_LOG_LIMIT),
      pageSize: MAX_LOG_LIMIT,
      subscribe: (wake) => this.notifications.subscribe(accountId, deploymentId, wake),
    });
    this.follows.add(stream);
    stream.once('close', () => this.follows.delete(stream));
    return stream;
  }

  /** The lines written after line `cursor`, oldest first: a follower's read. */
  async after(filter: LogFilter, cursor: number, limit: number): Promise<DeploymentLogLine[]> {
    const rows = await this.select(filter).where('id', '>', cursor).orderBy('id', 'asc').limit(limit).execute();
    return rows.map(toLine);
  }

  private select(filter: LogFilter) {
    return this.ctx.db
      .selectFrom('build_log')
      .selectAll()
      .where('account_id', '=', filter.accountId)
      .where('deployment_id', '=', filter.deploymentId)
      .$if(filter.source !== undefined, (q) => q.where('source', '=', filter.source!))
      .$if(filter.pod !== undefined, (q) => q.where('pod', '=', filter.pod!))
      .$if(filter.container !== undefined, (q) => q.where('container', '=', filter.container!));
  }
}

function toLine(row: BuildLogRow): DeploymentLogLine {
  return {
    id: row.id,
    at: toIso(row.created_at),
    source: row.source,
    pod: row.pod,
    container: row.container,
    level: row.level,
    buildId: row.build_id,
    message: row.message,
  };
}
