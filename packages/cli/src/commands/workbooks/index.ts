import type { Group } from '../../core/define.js';
import { create } from './create.js';
import { dashboard } from './dashboard.js';
import { remove } from './delete.js';
import { duplicate } from './duplicate.js';
import { get } from './get.js';
import { list } from './list.js';
import { publish } from './publish.js';
import { update } from './update.js';

export const group: Group = {
  name: 'workbooks',
  summary: 'Workbooks of a deployment and their dashboards',
  verbs: [list, get, create, update, remove, duplicate, dashboard, publish],
};
