import type { Group } from '../../core/define.js';
import { list } from './list.js';
import { set } from './set.js';
import { unset } from './unset.js';

export const group: Group = {
  name: 'variables',
  summary: "A deployment's environment variables",
  verbs: [list, set, unset],
};
