import type { PlinthModule, ServiceContext } from '../module.js';
import { RenderingService } from './service.js';

declare module '../module.js' {
  interface Services {
    rendering: RenderingService;
  }
}

/**
 * Published dashboards drawn in headless Chromium as one viewer sees them, through the embed
 * page, to PNG and PDF. No routes: notifications calls it on its `rendering` queue.
 */
export const renderingModule: PlinthModule = {
  name: 'rendering',
  services: { rendering: (ctx: ServiceContext) => new RenderingService(ctx) },
  onReady: (app) => app.services.rendering.attach(app),
};
