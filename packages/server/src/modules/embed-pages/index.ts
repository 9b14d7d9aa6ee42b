import type { PlinthModule } from '../module.js';
import { embedContextSchemas } from './context-schemas.js';
import { embedPagesRoutes, lazyBuild } from './routes.js';

/**
 * The embedded analytics pages (packages/web's build) and the server's root page: HTML and
 * hashed assets, hidden from the API's spec, served through the request pipeline; and the one
 * operation the pages call of their own (getEmbedContext).
 */
export const embedPagesModule: PlinthModule = {
  name: 'embed-pages',
  schemas: embedContextSchemas,
  routes: embedPagesRoutes(lazyBuild()),
};
