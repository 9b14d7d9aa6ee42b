import type { Config } from '../../config.js';
import { LocalRunner } from './local-runner.js';
import { RedisRunner } from './redis-runner.js';
import type { QueryRunner } from './query-runner.js';

export { CONTINUE_WAIT, StoredQueryError, type QueryRunner } from './query-runner.js';
export { LocalRunner } from './local-runner.js';
export { RedisRunner } from './redis-runner.js';

/** Every key and channel of the data API in Redis starts with this, then `{PLINTH_REDIS_NAMESPACE}:` when set. */
export const REDIS_PREFIX = 'plinth:dataapi:';

/**
 * The data API's runner: shared through Redis when PLINTH_REDIS_URL is set, so a `Continue wait`
 * retry may land on any process; per process otherwise.
 */
export function createRunner(config: Config, warn?: (message: string) => void): QueryRunner {
  if (!config.redisUrl) return new LocalRunner(config.continueWaitMs, config.resultCacheTtlMs);
  return new RedisRunner({
    url: config.redisUrl,
    prefix: REDIS_PREFIX + (config.redisNamespace ? `${config.redisNamespace}:` : ''),
    waitMs: config.continueWaitMs,
    ttlMs: config.resultCacheTtlMs,
    ...(warn ? { warn } : {}),
  });
}
