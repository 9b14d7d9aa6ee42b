import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../store/store.js';
import { openTestStore, storeKinds } from '../test-support/stores.js';
import type { Lease, Leases } from './lease.js';
import { RedisLeases } from './redis.js';
import { StoreLeases } from './store.js';

const REDIS_URL = process.env.PLINTH_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const TTL = 30_000;

/** One kind of lease keeping, with what the contract needs of it: fresh keys and a lease that lapses. */
interface Subject {
  leases: Leases;
  /** A key nobody holds. */
  key(): Promise<string>;
  /** Lets the lease run out without its holder (a clock moved past it, a key expired). */
  lapse(lease: Lease): Promise<void>;
  close(): Promise<void>;
}

async function storeSubject(kind: (typeof storeKinds)[number]): Promise<Subject> {
  const store: Store = await openTestStore(kind);
  await sql`create table leased (id bigint primary key, state text not null, holder text, held_until timestamptz)`.execute(store.db);
  let clock = Date.now();
  let n = 0;
  const leases = new StoreLeases(
    store.db,
    { table: 'leased', key: 'id', token: 'holder', until: 'held_until', where: sql`state = 'open'` },
    () => clock,
  );
  return {
    leases,
    key: async () => {
      await sql`insert into leased (id, state) values (${++n}, 'open')`.execute(store.db);
      return String(n);
    },
    lapse: async () => void (clock += TTL + 1),
    close: () => store.close(),
  };
}

function redisSubject(): Subject {
  const redis = new Redis(REDIS_URL);
  const prefix = `plinth:test-lease-${randomBytes(6).toString('hex')}:`;
  let n = 0;
  return {
    leases: new RedisLeases(redis),
    key: async () => `${prefix}${++n}`,
    // Redis drops a lapsed lease's key itself: dropping it here is the same, without waiting.
    lapse: async (lease) => void (await redis.del(lease.key)),
    close: async () => void redis.disconnect(),
  };
}

const subjects: [string, () => Promise<Subject>][] = [
  ...storeKinds.map((kind): [string, () => Promise<Subject>] => [`store rows [${kind}]`, () => storeSubject(kind)]),
  ['redis', async () => redisSubject()],
];

describe.each(subjects)('leases kept in %s', (_name, open) => {
  let subject: Subject;
  beforeAll(async () => {
    subject = await open();
  });
  afterAll(async () => {
    await subject?.close();
  });

  it('one of two holders takes a free lease; the other gets none until it is released', async () => {
    const key = await subject.key();
    const [a, b] = await Promise.all([subject.leases.acquire(key, TTL, 'a'), subject.leases.acquire(key, TTL, 'b')]);
    const [won, lost] = a ? [a, b] : [b, a];
    expect(won).toMatchObject({ key });
    expect(lost).toBeUndefined();
    expect(await subject.leases.release(won!)).toBe(true);
    expect(await subject.leases.release(won!)).toBe(false);
    expect(await subject.leases.acquire(key, TTL, 'c')).toEqual({ key, token: 'c' });
  });

  it('only the holder renews or releases: another token changes nothing', async () => {
    const key = await subject.key();
    const lease = (await subject.leases.acquire(key, TTL))!;
    const intruder = { key, token: 'intruder' };
    expect(await subject.leases.renew(intruder, TTL)).toBe(false);
    expect(await subject.leases.release(intruder)).toBe(false);
    expect(await subject.leases.renew(lease, TTL)).toBe(true);
    expect(await subject.leases.acquire(key, TTL)).toBeUndefined();
  });

  it('a lease that lapsed is taken by the next holder, and the old holder can neither renew nor release it', async () => {
    const key = await subject.key();
    const old = (await subject.leases.acquire(key, TTL, 'old'))!;
    await subject.lapse(old);
    const taken = (await subject.leases.acquire(key, TTL, 'new'))!;
    expect(taken).toEqual({ key, token: 'new' });
    expect(await subject.leases.renew(old, TTL)).toBe(false);
    expect(await subject.leases.release(old)).toBe(false);
    expect(await subject.leases.renew(taken, TTL)).toBe(true);
  });
});
