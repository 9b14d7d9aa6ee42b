import type { Group } from '../../core/define.js';
import { build } from './build.js';
import { list } from './list.js';
import { preview } from './preview.js';
import { status } from './status.js';

export const group: Group = {
  name: 'pre-aggregations',
  summary: "A deployment's pre-aggregations (rollups): list, build, status, preview",
  verbs: [list, build, status, preview],
};
