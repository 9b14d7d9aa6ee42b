import type { AddressInfo } from 'node:net';
import type { Query } from '@plinth/semantic';
import type { PlinthApp } from '../../app.js';
import type { ServiceContext } from '../module.js';
import type { SqlCaller } from './callers.js';
import { SqlCatalogs } from './catalog.js';
import { SqlCredentials, type BranchRef, type SqlCredential } from './credentials.js';
import { CancelKeys, SqlListener, type SqlLoginName } from './listener.js';
import type { Served } from './plans.js';
import { PROVISION_MISSING_JOB, provisionMissingJob } from './provision-job.js';

/** Pause between asks while a long query runs on (the data API answers `Continue wait` meanwhile). */
const CONTINUE_WAIT_RETRY_MS = 50;
/** Branches read at once when catching up on those without a credential. */
const BACKFILL_PAGE = 500;
/** Rows read from the warehouse at a time for a streamed statement: what one connection holds of its result. */
const STREAM_BATCH_ROWS = 1000;

/**
 * The SQL API: the environments' SQL credentials, the catalogs of the models served, and the
 * PostgreSQL-wire listener, which reads data only through the data API's `meta` and `load`, with
 * the request context of the connection's credential.
 */
export class SqlApiService {
  readonly credentials: SqlCredentials;
  readonly catalogs = new SqlCatalogs();
  private listener: SqlListener | undefined;

  constructor(private readonly ctx: ServiceContext) {
    this.credentials = new SqlCredentials(ctx.db, ctx.secrets);
    // Each environment is a branch: its SQL user comes and goes with it.
    ctx.services.dataModel.onBranchChange({
      created: (branch) => this.credentials.provision(branch),
      deleted: (branch) => this.credentials.remove(branch.deployment_id, String(branch.id)),
    });
  }

  /** The SQL credentials of these environments, for the environments operations (none while the listener is off). */
  async environmentCredentials(
    accountId: number,
    deploymentId: number,
    environmentIds: readonly string[],
  ): Promise<Map<string, SqlCredential>> {
    if (this.ctx.config.sql.port === null) return new Map();
    return this.credentials.shown(accountId, deploymentId, environmentIds);
  }

  /** A new password for the SQL user of an environment (a branch), answered once; made with it if the branch had none. */
  rotatePassword(branch: BranchRef): Promise<SqlCredential> {
    return this.credentials.rotate(branch);
  }

  /**
   * Queues the run of `provisionMissing` (provision-job.ts) that any process running the
   * maintenance queue takes; a run already queued or running is the one asked for, so servers
   * starting at once make one between them.
   */
  provisionMissingLater() {
    return provisionMissingJob.enqueue(this.ctx.db, {}, { dedupeKey: PROVISION_MISSING_JOB });
  }

  /**
   * Gives a credential to each branch made before credentials came with their branches; the job
   * queued at every server start runs it. Idempotent, so two runs at once are safe: the first
   * insert of a branch's credential stands and the others insert nothing. Two statements a page of
   * branches, however many deployments they belong to; `between` is called after each page (the
   * job's heartbeat). Answers how many were made.
   */
  async provisionMissing(between: () => Promise<void> = async () => undefined): Promise<number> {
    let made = 0;
    for (let after = 0; ;) {
      const page = await this.ctx.services.dataModel.branchPage(after, BACKFILL_PAGE);
      if (page.length === 0) return made;
      after = page[page.length - 1]!.id;
      for (const branch of await this.credentials.without(page)) {
        await this.credentials.provision(branch);
        made += 1;
      }
      await between();
    }
  }

  /** Where clients connect: the listener's port once it listens, else the configured one; null when off. */
  get port(): number | null {
    return this.listener?.address?.port ?? this.ctx.config.sql.port;
  }

  /** Starts the listener on `port` (the configured one unless given) and the app's host. */
  async listen(app: PlinthApp, port = this.ctx.config.sql.port ?? 0): Promise<AddressInfo> {
    const { tls } = this.ctx.config.sql;
    const log = (error: unknown) => app.log.error({ err: error }, 'SQL API connection failed');
    this.listener = new SqlListener({
      pipeline: app.pipeline,
      credentials: this.credentials,
      served: (caller, login) => this.served(caller, login),
      keys: new CancelKeys(),
      tls: tls ? { cert: toArrayBuffer(tls.cert), key: toArrayBuffer(tls.key) } : undefined,
      tlsRequired: () => this.ctx.config.sql.tlsRequired,
      log,
    });
    return this.listener.listen(port, this.ctx.config.host);
  }

  get openSessions(): number {
    return this.listener?.openSessions ?? 0;
  }

  /** What a statement of `caller` is answered from: the model as its policies show it, its catalog, its load. */
  private async served({ context, target }: SqlCaller, login: SqlLoginName): Promise<Served> {
    const { dataApi } = this.ctx.services;
    const { cubes } = await dataApi.meta(context, target);
    const catalog = (await this.catalogs.get(target.deploymentId, cubes, login.database)).as(login.user);
    const load = async (query: Query, signal: AbortSignal) => {
      for (;;) {
        signal.throwIfAborted();
        const answer = (await dataApi.load(context, target, query)) as { error?: string; data?: Array<Record<string, unknown>> };
        if (answer.error !== 'Continue wait') return answer as { data: Array<Record<string, unknown>>; lastRefreshTime?: string };
        await new Promise((resolve) => setTimeout(resolve, CONTINUE_WAIT_RETRY_MS));
      }
    };
    const stream = (query: Query, signal: AbortSignal) =>
      dataApi.stream(context, target, query as Readonly<Record<string, unknown>>, { signal, batchRows: STREAM_BATCH_ROWS });
    return { cubes, catalog, load, stream, maxRows: dataApi.maxLimit };
  }

  async close(): Promise<void> {
    await this.listener?.close();
    this.listener = undefined;
    await this.catalogs.close();
  }
}

function toArrayBuffer(pem: string): ArrayBuffer {
  const bytes = Buffer.from(pem, 'utf8');
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}
