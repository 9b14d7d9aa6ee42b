import type { Group } from '../../core/define.js';
import { create } from './create.js';
import { list } from './list.js';
import { revoke } from './revoke.js';

export const group: Group = { name: 'api-keys', summary: 'API keys', verbs: [list, create, revoke] };
