import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openTestStoreAgain } from '../../test-support/stores.js';
import { ApiError } from '../../http/errors.js';
import { createServices, type Services } from '../../services.js';
import type { Store } from '../../store/store.js';
import { startTestServer, type TestServer } from '../../test-support/server.js';
import { adminOf, newDeployment } from '../builds/test-fixtures.js';

/**
 * Two server processes sharing one PostgreSQL, each with its own store (pool) and services, as two
 * `plinth-server`s would: the lease lives in the store, so runs of one deployment and credential
 * take turns whichever process each asks. PGlite is one process's store by nature: PostgreSQL only.
 */
describe.skipIf(!process.env.DATABASE_URL)('CI gate runs across two server processes on one PostgreSQL', () => {
  let first: TestServer;
  let second: Store;
  let secondServices: Services;

  beforeAll(async () => {
    first = await startTestServer('postgres');
    second = await openTestStoreAgain(first.store, 5);
    secondServices = await createServices(second, first.config);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('of runs started at once in both processes exactly one gets the lease', async () => {
    const account = await first.newAccount();
    const deploymentId = await newDeployment(account);
    const principal = adminOf(account);
    const gates = [first.services.ciGate, secondServices.ciGate];
    const outcomes = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => gates[i % 2]!.start(principal, deploymentId, { ref: `r${i}`, waitSeconds: 0 })),
    );
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const lost of outcomes.filter((o) => o.status === 'rejected')) {
      const reason = (lost as PromiseRejectedResult).reason as ApiError;
      expect(reason).toBeInstanceOf(ApiError);
      expect(reason.code).toBe('conflict');
    }
  });

  it('a run waiting in one process gets its turn when the holder finishes in the other', async () => {
    const account = await first.newAccount();
    const deploymentId = await newDeployment(account);
    const principal = adminOf(account);
    const holder = await first.services.ciGate.start(principal, deploymentId, { ref: 'holder' });
    const waiting = secondServices.ciGate.start(principal, deploymentId, { ref: 'waiting', waitSeconds: 60 });
    let settled = false;
    void waiting.finally(() => (settled = true));
    // The waiter has found the lease held and sleeps until woken (its waker registered), not settled.
    const { wakers } = secondServices.ciGate as unknown as { wakers: Map<string, Set<() => void>> };
    const sleeping = () => [...wakers.values()].reduce((count, set) => count + set.size, 0);
    await vi.waitFor(() => expect(sleeping()).toBe(1), { timeout: 10_000, interval: 5 });
    expect(settled).toBe(false);
    await first.services.ciGate.finish(principal, deploymentId, holder.runId, 'passed');
    const turn = await waiting;
    expect(turn).toMatchObject({ ref: 'waiting', state: 'active' });
    expect(turn.runId).not.toBe(holder.runId);
  });
});
