import type { Group } from '../../core/define.js';
import { bulk } from './bulk.js';
import { resourceTypes, schemas, serviceProviderConfig } from './discovery.js';
import { groups } from './groups.js';
import { search } from './search.js';
import { tokens } from './tokens.js';
import { users } from './users.js';

export const group: Group = {
  name: 'scim',
  summary: 'SCIM 2.0',
  verbs: [users, groups, search, bulk, serviceProviderConfig, resourceTypes, schemas, tokens],
};
