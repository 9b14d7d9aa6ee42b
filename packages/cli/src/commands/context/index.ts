import type { Group } from '../../core/define.js';
import { list } from './list.js';
import { show } from './show.js';
import { use } from './use.js';

export const group: Group = { name: 'context', summary: 'Saved contexts', verbs: [list, use, show] };
