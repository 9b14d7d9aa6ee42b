import type { PlinthModule, ServiceContext } from '../module.js';
import { telemetryRoutes } from './routes.js';
import { telemetrySchemas } from './schemas.js';
import { TelemetryService } from './service.js';
import { telemetryRetention } from './retention.js';

declare module '../module.js' {
  interface Services {
    telemetry: TelemetryService;
  }
}

/** Anonymous usage telemetry of the command-line client (issue 5). */
export const telemetryModule: PlinthModule = {
  name: 'telemetry',
  tags: {
    Telemetry: 'Anonymous usage events of the command-line client.',
  },
  services: { telemetry: ({ db, services }: ServiceContext) => new TelemetryService(db, services.rateLimits) },
  tables: ['telemetry_event'],
  retention: telemetryRetention,
  schemas: telemetrySchemas,
  routes: telemetryRoutes,
};
