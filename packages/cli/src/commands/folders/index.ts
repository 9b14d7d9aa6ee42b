import type { Group } from '../../core/define.js';
import { ancestors } from './ancestors.js';
import { create } from './create.js';
import { remove } from './delete.js';
import { list } from './list.js';
import { update } from './update.js';

export const group: Group = {
  name: 'folders',
  summary: "Folders of a deployment's workspace",
  verbs: [list, create, update, remove, ancestors],
};
