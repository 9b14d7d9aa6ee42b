import type { Group } from '../../core/define.js';
import { create } from './create.js';
import { remove } from './delete.js';
import { folders } from './folders.js';
import { get } from './get.js';
import { list } from './list.js';
import { refresh } from './refresh.js';
import { update } from './update.js';

export const group: Group = {
  name: 'reports',
  summary: 'Reports: saved queries of a deployment and their snapshots',
  verbs: [list, get, create, update, remove, refresh, folders],
};
