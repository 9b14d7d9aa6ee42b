import type { Group } from '../../core/define.js';
import { create, get, list, remove, update } from './crud.js';
import { setValues, values } from './values.js';

export const group: Group = {
  name: 'attributes',
  summary: 'User attributes',
  verbs: [list, get, create, update, remove, values, setValues],
};
