import type { Group } from '../../core/define.js';
import { create, get, list, remove, update } from './crud.js';

export const group: Group = { name: 'integrations', summary: 'OAuth integrations', verbs: [list, get, create, update, remove] };
