import type { PlinthModule, ServiceContext } from '../module.js';
import { GroupService } from './service.js';
import { groupRoutes } from './routes.js';
import { groupSchemas } from './schemas.js';

declare module '../module.js' {
  interface Services {
    groups: GroupService;
  }
}

export const groupsModule: PlinthModule = {
  name: 'groups',
  services: { groups: ({ db, services }: ServiceContext) => new GroupService(db, services.users) },
  tables: ['user_group', 'group_member'],
  schemas: groupSchemas,
  routes: groupRoutes,
};
