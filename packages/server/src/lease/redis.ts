import type { ChainableCommander, Redis } from 'ioredis';
import { leaseToken, type Lease, type Leases } from './lease.js';

// Renew or release only while the key still holds our token: a lease that expired may be another's now.
const RENEW = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end return 0";
const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";

/**
 * Leases as Redis keys holding the holder's token, expiring with the lease (SET NX PX): Redis
 * drops a lapsed lease itself, so acquiring is setting a key that does not exist.
 */
export class RedisLeases implements Leases {
  constructor(private readonly redis: Redis) {}

  async acquire(key: string, ttlMs: number, token = leaseToken()): Promise<Lease | undefined> {
    return (await this.redis.set(key, token, 'PX', ttlMs, 'NX')) === 'OK' ? { key, token } : undefined;
  }

  async renew(lease: Lease, ttlMs: number): Promise<boolean> {
    return Number(await this.redis.eval(RENEW, 1, lease.key, lease.token, ttlMs)) === 1;
  }

  async release(lease: Lease): Promise<boolean> {
    return Number(await this.redis.eval(RELEASE, 1, lease.key, lease.token)) === 1;
  }

  /** Queues the release in `multi`, so the lease ends in one step with what the holder writes last (its result). */
  releaseIn(multi: ChainableCommander, lease: Lease): ChainableCommander {
    return multi.eval(RELEASE, 1, lease.key, lease.token);
  }
}
