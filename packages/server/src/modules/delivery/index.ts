import type { PlinthModule, ServiceContext } from '../module.js';
import { deliveryRoutes } from './routes.js';
import { deliverySchemas } from './schemas.js';
import { DeliveryService } from './service.js';

declare module '../module.js' {
  interface Services {
    delivery: DeliveryService;
  }
}

/**
 * E-mail over the operator's SMTP server and Slack messages with the account's bot token, for
 * notifications; and the bot token itself, a tenant setting kept sealed.
 */
export const deliveryModule: PlinthModule = {
  name: 'delivery',
  services: { delivery: (ctx: ServiceContext) => new DeliveryService(ctx) },
  tables: ['slack_bot_token'],
  schemas: deliverySchemas,
  routes: deliveryRoutes,
};
