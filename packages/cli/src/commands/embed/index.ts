import type { Group } from '../../core/define.js';
import { generateSession } from './generate-session.js';
import { sessions } from './sessions.js';
import { revoke, token } from './token.js';
import { attributes, groups, users } from './tenant.js';
import { provision } from './provision.js';
import { provisionBulk } from './provision-bulk.js';
import { enableDashboard } from './enable-dashboard.js';
import { disableDashboard } from './disable-dashboard.js';
import { dashboard } from './dashboard.js';
import { context } from './context.js';

/** Signed embedding, and which dashboards embed tokens may open. */
export const group: Group = {
  name: 'embed',
  summary: 'Signed embedding',
  verbs: [
    generateSession,
    token,
    revoke,
    sessions,
    groups,
    attributes,
    users,
    provision,
    provisionBulk,
    enableDashboard,
    disableDashboard,
    dashboard,
    context,
  ],
};
