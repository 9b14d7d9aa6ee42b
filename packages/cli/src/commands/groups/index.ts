import type { Group } from '../../core/define.js';
import { create, get, list, remove, update } from './crud.js';
import { addMembers, members, removeMember } from './members.js';

export const group: Group = {
  name: 'groups',
  summary: 'User groups',
  verbs: [list, get, create, update, remove, members, addMembers, removeMember],
};
