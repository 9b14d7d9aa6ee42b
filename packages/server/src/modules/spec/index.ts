import type { PlinthModule } from '../module.js';
import { specRoutes } from './routes.js';

export const specModule: PlinthModule = { name: 'spec', tags: { 'OpenAPI Spec': 'This document.' }, routes: specRoutes };
