import type { Group } from '../../core/define.js';
import { list } from './list.js';
import { setGroup } from './set-group.js';
import { setUser } from './set-user.js';

export const group: Group = { name: 'policies', summary: 'Resource policies of users and groups', verbs: [list, setUser, setGroup] };
