import type { Group } from '../../core/define.js';
import { create } from './create.js';
import { remove } from './delete.js';
import { group as llms } from './llms/index.js';
import { list } from './list.js';
import { skills } from './skills.js';
import { update } from './update.js';

export const group: Group = {
  name: 'agents',
  summary: 'Agents of a deployment, their skills, and the LLM endpoints of the account',
  verbs: [list, create, update, remove, skills, llms],
};
