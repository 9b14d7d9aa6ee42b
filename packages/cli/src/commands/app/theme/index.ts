import type { Group } from '../../../core/define.js';
import { get } from './get.js';
import { set } from './set.js';

export const theme: Group = {
  name: 'theme',
  summary: "The account's app theme: light and dark palettes, typography",
  verbs: [get, set],
};
