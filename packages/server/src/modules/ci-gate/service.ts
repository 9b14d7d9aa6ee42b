import { ApiError, badRequest, conflict, notFound } from '../../http/errors.js';
import type { Principal, UserPrincipal } from '../../http/principal.js';
import { leaseToken, type Lease } from '../../lease/lease.js';
import type { CiRunRow } from '../../store/schema.js';
import { transactionWithRetry } from '../../store/transaction.js';
import { credentialKey } from '../data-model/public.js';
import type { ServiceContext } from '../module.js';
import { DEFAULT_WAIT_SECONDS, LEASE_SECONDS, MAX_WAIT_SECONDS, pause, RELEASED_CHANNEL, WAIT_POLL_MS } from './lease.js';
import { leaseCheckJob } from './job.js';
import { mayDrive, ownerOf, principalOfOwner } from './owner.js';
import { CiRunRepo } from './repo.js';
import { view, type CiRunView } from './views.js';

const LEASE_MS = LEASE_SECONDS * 1000;

/**
 * CI gate runs (section 4.8 rule 8). Runs of one deployment and credential take turns through a
 * lease kept in the store (a row lock and a partial unique index, never process memory), so any
 * number of server processes agree. Each run's row holds its own lease the way every row-held
 * lease is kept (lease/store.ts): heartbeats renew it and a lapse takes it, by compare-and-set. No
 * run ends another part-way: a waiting run gets its turn when the holder finishes or its lease
 * lapses, and only then is the holder's dev mode exited.
 */
export class CiGateService {
  /** The clock of leases; tests move it instead of sleeping. */
  now: () => number = Date.now;
  private readonly repo: CiRunRepo;
  private readonly wakers = new Map<string, Set<() => void>>();
  private listening: Promise<void> | undefined;

  constructor(private readonly ctx: ServiceContext) {
    this.repo = new CiRunRepo(ctx.db);
  }

  /** Takes the pair's lease, waiting up to `waitSeconds` for the run holding it; 409 naming that run after. */
  async start(principal: UserPrincipal, deploymentId: number, input: { ref: string; waitSeconds?: number }, signal?: AbortSignal) {
    const ref = input.ref.trim();
    if (ref === '') throw badRequest('ref is empty; name the branch or tag the run gates');
    const waitSeconds = input.waitSeconds ?? DEFAULT_WAIT_SECONDS;
    if (!(await this.ctx.services.deployments.find(principal.accountId, deploymentId))) {
      throw notFound(`Deployment ${deploymentId} not found`);
    }
    const key = credentialKey(principal);
    const deadline = this.now() + Math.min(waitSeconds, MAX_WAIT_SECONDS) * 1000;
    const wakers = this.wakersOf(deploymentId, key);
    await this.listen();
    try {
      for (;;) {
        const started = await this.tryStart(principal, deploymentId, key, ref);
        if (started) return view(started);
        const left = deadline - this.now();
        if (left <= 0 || signal?.aborted) throw await this.busy(deploymentId, key, waitSeconds);
        await pause(Math.min(left, WAIT_POLL_MS), wakers, signal);
      }
    } finally {
      if (wakers.size === 0) this.wakers.delete(`${deploymentId}:${key}`);
    }
  }

  async heartbeat(principal: Principal, deploymentId: number, runId: number): Promise<CiRunView> {
    return transactionWithRetry(this.ctx.db, async () => {
      const row = await this.ownRun(principal, deploymentId, runId);
      if (row.state !== 'active') throw conflict(`${this.describe(row)} has ended (${row.state}); start a new run`);
      // A lease past its end but not yet taken over is still the run's (renewing compares only its
      // holder): nothing has been undone. Under the row lock an active run holds its lease.
      await this.repo.leases(() => this.now()).renew(leaseOf(row), LEASE_MS);
      return view((await this.repo.byId(row.id))!);
    });
  }

  async finish(principal: Principal, deploymentId: number, runId: number, outcome: 'passed' | 'failed'): Promise<CiRunView> {
    return transactionWithRetry(this.ctx.db, async () => {
      const row = await this.ownRun(principal, deploymentId, runId);
      if (row.state === outcome) return view(row);
      if (row.state !== 'active') throw conflict(`${this.describe(row)} has already ended (${row.state})`);
      const leases = this.repo.leases(() => this.now());
      const ended = (await this.repo.end(leases, leaseOf(row), outcome, new Date(this.now())))!;
      await this.repo.released(RELEASED_CHANNEL, row.deployment_id, row.credential_key);
      return view(ended);
    });
  }

  /**
   * The lease check job: a run whose lease has lapsed is ended and its credential's dev mode
   * exited, in one transaction holding the run's row; one whose lease was extended gets the next
   * check at its new end. A run that already ended, or was taken over, is left alone.
   */
  async checkLease(runId: number, now: number): Promise<Record<string, unknown>> {
    return transactionWithRetry(this.ctx.db, async () => {
      const row = await this.repo.byIdForUpdate(runId);
      if (!row || row.state !== 'active') return { runId, skipped: `the run is ${row?.state ?? 'gone'}` };
      const lapsed = await this.lapse(row, now);
      if (lapsed) return { runId, ...lapsed };
      await this.scheduleCheck(row);
      return { runId, extendedUntil: new Date(row.lease_until).toISOString() };
    });
  }

  private async tryStart(principal: UserPrincipal, deploymentId: number, key: string, ref: string): Promise<CiRunRow | undefined> {
    return transactionWithRetry(this.ctx.db, async () => {
      const holder = await this.repo.activeForUpdate(deploymentId, key);
      const now = this.now();
      // A holder whose runner is gone (its lease lapsed before the check job ran) is ended now, so
      // its dev mode is exited before the new run opens its own, never after.
      if (holder && !(await this.lapse(holder, now))) return undefined;
      const row = await this.repo.insert({
        accountId: principal.accountId,
        deploymentId,
        credentialKey: key,
        owner: ownerOf(principal),
        ref,
        holder: leaseToken('ci-run'),
        leaseUntil: new Date(now + LEASE_MS),
      });
      if (row) await this.scheduleCheck(row);
      return row;
    });
  }

  /**
   * Ends the run if its lease has lapsed by `now`, and undefined while it is still held. Taking the
   * lease succeeds only once it lapsed, and only once; it is taken for no time, just to end the run.
   */
  private async lapse(row: CiRunRow, now: number) {
    const leases = this.repo.leases(() => now);
    const taken = await leases.acquire(String(row.id), 0, leaseToken('lapse'));
    if (!taken) return undefined;
    await this.repo.end(leases, taken, 'lapsed', new Date(now));
    let devMode: string | null = null;
    try {
      devMode = (await this.ctx.services.dataModel.devMode.exit(principalOfOwner(row), row.deployment_id)).branchName;
    } catch (error) {
      // The deployment was deleted meanwhile: there is no dev mode left to exit.
      if (!(error instanceof ApiError && error.code === 'not_found')) throw error;
    }
    await this.repo.released(RELEASED_CHANNEL, row.deployment_id, row.credential_key);
    return { lapsed: true, devModeExited: devMode };
  }

  private scheduleCheck(row: CiRunRow) {
    const runAt = new Date(row.lease_until);
    // Keyed by the lease end, so a check re-run after a crash does not queue the next one twice.
    const dedupeKey = `ci-run:${row.id}:${runAt.getTime()}`;
    return leaseCheckJob.enqueue(this.ctx.db, { runId: row.id }, { accountId: row.account_id, runAt, dedupeKey });
  }

  /** The caller's run of this deployment, locked; another user's run is as missing as an unknown one. */
  private async ownRun(principal: Principal, deploymentId: number, runId: number): Promise<CiRunRow> {
    const row = await this.repo.byIdForUpdate(runId, principal.accountId);
    if (!row || row.deployment_id !== deploymentId || !mayDrive(principal, row)) {
      throw notFound(`CI run ${runId} of deployment ${deploymentId} not found`);
    }
    return row;
  }

  private async busy(deploymentId: number, key: string, waitSeconds: number): Promise<ApiError> {
    const holder = await this.repo.active(deploymentId, key);
    const waited = `waited ${waitSeconds} s for its turn`;
    if (!holder) return conflict(`Another CI run of deployment ${deploymentId} for this credential started first; ${waited}`);
    return conflict(
      `${this.describe(holder)} holds the lease of deployment ${deploymentId} for this credential until ` +
        `${new Date(holder.lease_until).toISOString()}; ${waited}. Runs of one deployment and credential take turns: ` +
        'try again when it has finished, or use another API key.',
    );
  }

  private describe(row: CiRunRow): string {
    return `CI run ${row.id} (ref "${row.ref}", started ${new Date(row.created_at).toISOString()})`;
  }

  private wakersOf(deploymentId: number, key: string): Set<() => void> {
    const name = `${deploymentId}:${key}`;
    let set = this.wakers.get(name);
    if (!set) this.wakers.set(name, (set = new Set()));
    return set;
  }

  /** One listener per process, registered by the first run that waits; it wakes the waiters of the pair it names. */
  private listen(): Promise<void> {
    return (this.listening ??= this.ctx.store.listen(RELEASED_CHANNEL, (payload) => {
      for (const wake of [...(this.wakers.get(payload ?? '') ?? [])]) wake();
    }));
  }
}

function leaseOf(row: CiRunRow): Lease {
  return { key: String(row.id), token: row.holder ?? '' };
}
