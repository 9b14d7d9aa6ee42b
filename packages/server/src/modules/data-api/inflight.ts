import type { Config } from '../../config.js';
import { LocalExecutor } from './local-executor.js';
import { RedisExecutor } from './redis-executor.js';
import type { QueryExecutor } from './query-executor.js';

export { CONTINUE_WAIT, StoredQueryError, type QueryExecutor } from './query-executor.js';
export { LocalExecutor } from './local-executor.js';
export { RedisExecutor } from './redis-executor.js';

/** Every key and channel of the data API in Redis starts with this, then `{PLINTH_REDIS_NAMESPACE}:` when set. */
export const REDIS_PREFIX = 'plinth:dataapi:';

/**
 * The data API's executor: shared through Redis when PLINTH_REDIS_URL is set, so a `Continue wait`
 * retry may land on any process; per process otherwise.
 */
export function createExecutor(config: Config, warn?: (message: string) => void): QueryExecutor {
  if (!config.redisUrl) return new LocalExecutor(config.continueWaitMs, config.resultCacheTtlMs);
  return new RedisExecutor({
    url: config.redisUrl,
    prefix: REDIS_PREFIX + (config.redisNamespace ? `${config.redisNamespace}:` : ''),
    waitMs: config.continueWaitMs,
    ttlMs: config.resultCacheTtlMs,
    ...(warn ? { warn } : {}),
  });
}
