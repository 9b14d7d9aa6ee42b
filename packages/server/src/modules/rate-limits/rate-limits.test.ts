import { expect, it } from 'vitest';
import { openTestStoreAgain } from '../../test-support/stores.js';
import type { Store } from '../../store/store.js';
import { describeOnStores } from '../../test-support/server.js';
import { clientAddress } from './client-address.js';
import { delayAfter, type DelayPolicy, type WindowPolicy } from './policies.js';
import { RateLimitService } from './service.js';

const unique = () => `key-${Math.random().toString(36).slice(2)}`;
const windowPolicy: WindowPolicy = { kind: 'window', name: 'test-window', limit: 5, windowMs: 60_000 };
const delayPolicy: DelayPolicy = { kind: 'delay', name: 'test-delay', free: 2, capMs: 8_000, forgetAfterMs: 3_600_000 };

describeOnStores('rate limits in the metadata store (issue 10, security 5)', (server) => {
  /** A second process's view of the same store: its own service, or on PostgreSQL its own pool. */
  async function secondProcess(): Promise<{ limits: RateLimitService; close: () => Promise<void> }> {
    const { store } = server();
    if (store.kind === 'pglite') return { limits: new RateLimitService(store.db, 1000), close: async () => {} };
    const other: Store = await openTestStoreAgain(store, 2);
    return { limits: new RateLimitService(other.db, 1000), close: () => other.close() };
  }

  it('two processes on one store share the counters of a window', async () => {
    const key = unique();
    const first = new RateLimitService(server().store.db, 1000);
    const second = await secondProcess();
    try {
      const verdicts = [];
      for (let i = 0; i < 6; i++) verdicts.push(await (i % 2 ? second.limits : first).hit(windowPolicy, key));
      expect(verdicts.map((v) => v.admitted)).toEqual([true, true, true, true, true, false]);
      const refused = verdicts[5]!;
      expect(refused.admitted === false && refused.retryAfterSeconds).toBeGreaterThan(0);
    } finally {
      await second.close();
    }
  });

  it('two processes share the delays: one sees the attempts the other counted', async () => {
    const key = unique();
    const first = new RateLimitService(server().store.db, 1000);
    const second = await secondProcess();
    try {
      expect((await first.attempt(delayPolicy, key)).admitted).toBe(true);
      expect((await first.attempt(delayPolicy, key)).admitted).toBe(true);
      expect(await second.limits.attempt(delayPolicy, key)).toEqual({ admitted: false, retryAfterSeconds: 1 });
    } finally {
      await second.close();
    }
  });

  it('concurrent hits cannot race past the limit', async () => {
    const key = unique();
    const limits = new RateLimitService(server().store.db, 1000);
    const second = await secondProcess();
    try {
      const verdicts = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? second.limits : limits).hit(windowPolicy, key)));
      expect(verdicts.filter((v) => v.admitted)).toHaveLength(windowPolicy.limit);
      const other = unique();
      const attempts = await Promise.all(
        Array.from({ length: 12 }, (_, i) => (i % 2 ? second.limits : limits).attempt(delayPolicy, other)),
      );
      expect(attempts.filter((v) => v.admitted)).toHaveLength(delayPolicy.free);
    } finally {
      await second.close();
    }
  });

  it('a delay doubles at each attempt up to its cap, then ends; a quiet bucket is forgotten', async () => {
    const key = unique();
    let now = Date.now();
    const limits = new RateLimitService(server().store.db, 1000);
    limits.now = () => now;
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      const verdict = await limits.attempt(delayPolicy, key);
      if (verdict.admitted) continue;
      waits.push(verdict.retryAfterSeconds);
      now += verdict.retryAfterSeconds * 1000 - 1;
      expect((await limits.attempt(delayPolicy, key)).admitted).toBe(false);
      now += 1;
      expect((await limits.attempt(delayPolicy, key)).admitted).toBe(true);
    }
    expect(waits).toEqual([1, 2, 4, 8, 8, 8]);
    now += delayPolicy.forgetAfterMs + 1;
    expect((await limits.attempt(delayPolicy, key)).admitted).toBe(true);
    expect((await limits.attempt(delayPolicy, key)).admitted).toBe(true);
  });

  it('a window opens again after its length', async () => {
    const key = unique();
    let now = Date.now();
    const limits = new RateLimitService(server().store.db, 1000);
    limits.now = () => now;
    for (let i = 0; i < windowPolicy.limit; i++) expect((await limits.hit(windowPolicy, key)).admitted).toBe(true);
    expect(await limits.hit(windowPolicy, key)).toEqual({ admitted: false, retryAfterSeconds: 60 });
    now += windowPolicy.windowMs;
    expect((await limits.hit(windowPolicy, key)).admitted).toBe(true);
  });

  it('a bucket idle for a day counts nothing before the retention sweep deletes it (issue 11: the purge left the request path)', async () => {
    let now = Date.now();
    const limits = new RateLimitService(server().store.db, 1000);
    limits.now = () => now;
    const [windowKey, delayKey] = [unique(), unique()];
    for (let i = 0; i <= windowPolicy.limit; i++) await limits.hit(windowPolicy, windowKey);
    for (let i = 0; i <= delayPolicy.free + 3; i++) await limits.attempt(delayPolicy, delayKey);
    now += 25 * 3600_000;
    const stale = () =>
      server()
        .store.db.selectFrom('rate_limit')
        .select('bucket')
        .where('last_hit_at', '<', new Date(now - 24 * 3600_000))
        .execute();
    expect((await stale()).length).toBeGreaterThanOrEqual(2);
    // Still there, yet both upserts start the bucket afresh.
    expect(await limits.hit(windowPolicy, windowKey)).toEqual({ admitted: true });
    expect(await limits.attempt(delayPolicy, delayKey)).toEqual({ admitted: true });
    await limits.hit(windowPolicy, unique());
    now += 25 * 3600_000;
    expect((await stale()).length).toBeGreaterThanOrEqual(3);
    server().jobs.queue.now = () => now;
    await server().jobs.queue.enqueue({ kind: 'retention.sweep' });
    await server().jobs.runUntilIdle();
    expect(await stale()).toEqual([]);
  });
});

it.each([
  ['192.0.2.1', '192.0.2.1'],
  ['::ffff:192.0.2.1', '192.0.2.1'],
  ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
  ['2001:db8:1:2::9', '2001:db8:1:2::/64'],
  ['2001:db8::1', '2001:db8:0:0::/64'],
  ['::1', '0:0:0:0::/64'],
])('the client address of %s is %s', (ip, expected) => {
  expect(clientAddress(ip)).toBe(expected);
});

it('the delay after n attempts', () => {
  expect([0, 1, 2, 3, 4, 5, 6, 60].map((hits) => delayAfter(delayPolicy, hits, 1000))).toEqual([0, 0, 1000, 2000, 4000, 8000, 8000, 8000]);
});
