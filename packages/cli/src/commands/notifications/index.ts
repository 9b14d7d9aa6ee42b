import type { Group } from '../../core/define.js';
import { addRecipients } from './add-recipients.js';
import { create } from './create.js';
import { remove } from './delete.js';
import { get } from './get.js';
import { list } from './list.js';
import { recipients } from './recipients.js';
import { removeRecipients } from './remove-recipients.js';
import { runs } from './runs.js';
import { update } from './update.js';

export const group: Group = {
  name: 'notifications',
  summary: 'Scheduled notifications: dashboards delivered by e-mail and Slack on a schedule',
  verbs: [list, get, create, update, remove, recipients, addRecipients, removeRecipients, runs],
};
