import type { PlinthModule, ServiceContext } from '../module.js';
import { appThemeRoutes } from './routes.js';
import { appThemeSchemas } from './schemas.js';
import { AppThemeService } from './service.js';

declare module '../module.js' {
  interface Services {
    appTheme: AppThemeService;
  }
}

/** The account's app theme: palettes, typography and whether it applies to the whole application. */
export const appThemeModule: PlinthModule = {
  name: 'app-theme',
  tags: {
    'App Theme': 'The look of the application and of embedded dashboards.',
  },
  services: { appTheme: ({ db }: ServiceContext) => new AppThemeService(db) },
  tables: ['app_theme'],
  schemas: appThemeSchemas,
  routes: appThemeRoutes,
};
