import type { Group } from '../../core/define.js';
import { region } from './region.js';
import { regionSet } from './region-set.js';
import { settings } from './settings.js';
import { settingsSet } from './settings-set.js';

export const group: Group = {
  name: 'ai',
  summary: 'AI engineer settings and your agent region',
  verbs: [settings, settingsSet, region, regionSet],
};
