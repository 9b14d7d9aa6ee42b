import type { Group } from '../../../core/define.js';
import { create } from './create.js';
import { remove } from './delete.js';
import { list } from './list.js';
import { update } from './update.js';

export const group: Group = {
  name: 'llms',
  summary: "The account's OpenAI-compatible LLM endpoints",
  verbs: [list, create, update, remove],
};
