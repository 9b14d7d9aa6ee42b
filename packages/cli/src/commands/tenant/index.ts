import type { Group } from '../../core/define.js';
import { show } from './show.js';
import { setSlackToken, slackToken, unsetSlackToken } from './slack-token.js';
import { update } from './update.js';

export const group: Group = {
  name: 'tenant',
  summary: 'Tenant settings',
  verbs: [show, update, slackToken, setSlackToken, unsetSlackToken],
};
