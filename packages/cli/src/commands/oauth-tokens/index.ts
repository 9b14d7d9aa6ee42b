import type { Group } from '../../core/define.js';
import { create } from './create.js';
import { list } from './list.js';
import { refresh } from './refresh.js';
import { revoke } from './revoke.js';

export const group: Group = {
  name: 'oauth-tokens',
  summary: 'Your OAuth tokens issued through the OAuth integrations',
  verbs: [list, create, refresh, revoke],
};
