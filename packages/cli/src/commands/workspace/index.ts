import type { Group } from '../../core/define.js';
import { list } from './list.js';
import { move } from './move.js';
import { shared } from './shared.js';

export const group: Group = {
  name: 'workspace',
  summary: 'Your workspace and the shared workspace of a deployment, and moving items between folders',
  verbs: [list, shared, move],
};
