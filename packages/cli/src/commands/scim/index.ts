import type { Group } from '../../core/define.js';
import { groups } from './groups.js';
import { tokens } from './tokens.js';
import { users } from './users.js';

export const group: Group = { name: 'scim', summary: 'SCIM 2.0', verbs: [users, groups, tokens] };
