import type { PlinthModule } from '../module.js';
import { leaseCheckJob } from './job.js';
import { ciGateRoutes } from './routes.js';
import { ciGateSchemas } from './schemas.js';
import { CiGateService } from './service.js';

declare module '../module.js' {
  interface Services {
    ciGate: CiGateService;
  }
}

/** The CI gate's server side (section 4.8 rule 8): runs of one deployment and credential take turns through a lease. */
export const ciGateModule: PlinthModule = {
  name: 'ci-gate',
  tags: {
    'CI Gate': 'Runs of the CI gate: one at a time per deployment and credential, each holding a lease.',
  },
  services: { ciGate: (ctx) => new CiGateService(ctx) },
  tables: ['ci_run'],
  schemas: ciGateSchemas,
  routes: ciGateRoutes,
  jobs: [leaseCheckJob],
};
