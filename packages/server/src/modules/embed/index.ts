import type { PlinthModule } from '../module.js';
import { embedRoutes } from './routes.js';
import { embedSchemas } from './schemas.js';

export const embedModule: PlinthModule = { name: 'embed', schemas: embedSchemas, routes: embedRoutes };
