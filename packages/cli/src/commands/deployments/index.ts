import type { Group } from '../../core/define.js';
import { create } from './create.js';
import { get } from './get.js';
import { list } from './list.js';

export const group: Group = { name: 'deployments', summary: 'Deployments', verbs: [list, get, create] };
