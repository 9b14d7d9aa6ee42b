import type { Group } from '../../core/define.js';
import { generateSession } from './generate-session.js';
import { sessions } from './sessions.js';
import { revoke, token } from './token.js';
import { attributes, groups, users } from './tenant.js';
import { provision } from './provision.js';
import { provisionBulk } from './provision-bulk.js';

/** Signed embedding. enable-dashboard / disable-dashboard arrive with dashboards (a later issue). */
export const group: Group = {
  name: 'embed',
  summary: 'Signed embedding',
  verbs: [generateSession, token, revoke, sessions, groups, attributes, users, provision, provisionBulk],
};
