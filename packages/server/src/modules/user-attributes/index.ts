import type { PlinthModule, ServiceContext } from '../module.js';
import { UserAttributeService } from './service.js';
import { userAttributeRoutes } from './routes.js';
import { userAttributeSchemas } from './schemas.js';

declare module '../module.js' {
  interface Services {
    userAttributes: UserAttributeService;
  }
}

export const userAttributesModule: PlinthModule = {
  name: 'user-attributes',
  tags: {
    'User Attributes': 'Attributes defined for the users of the account, used in access policies and embedding.',
    'User Attribute Values': "A user's values of the account's user attributes.",
  },
  services: {
    userAttributes: ({ db, services }: ServiceContext) => new UserAttributeService(db, services.users),
  },
  tables: ['user_attribute', 'user_attribute_value'],
  schemas: userAttributeSchemas,
  routes: userAttributeRoutes,
};
