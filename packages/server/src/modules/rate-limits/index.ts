import type { PlinthModule, ServiceContext } from '../module.js';
import { RateLimitService } from './service.js';
import { rateLimitRetention } from './retention.js';

declare module '../module.js' {
  interface Services {
    rateLimits: RateLimitService;
  }
}

/** Rate limits shared by every replica: no routes, used by login and telemetry. */
export const rateLimitsModule: PlinthModule = {
  name: 'rate-limits',
  services: { rateLimits: ({ db, config }: ServiceContext) => new RateLimitService(db, config.signInDelayMs) },
  tables: ['rate_limit'],
  retention: rateLimitRetention,
};
