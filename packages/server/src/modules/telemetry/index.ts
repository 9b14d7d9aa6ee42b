import type { PlinthModule } from '../module.js';
import { telemetryRoutes } from './routes.js';
import { telemetrySchemas } from './schemas.js';

/** Anonymous usage telemetry of the command-line client (issue 5). */
export const telemetryModule: PlinthModule = { name: 'telemetry', schemas: telemetrySchemas, routes: telemetryRoutes };
