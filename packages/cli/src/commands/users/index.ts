import type { Group } from '../../core/define.js';
import { acceptInvite } from './accept-invite.js';
import { create } from './create.js';
import { remove } from './delete.js';
import { embedTheme } from './embed-theme/index.js';
import { get } from './get.js';
import { invite } from './invite.js';
import { list } from './list.js';
import { me } from './me.js';
import { setPassword } from './set-password.js';
import { update } from './update.js';

export const group: Group = {
  name: 'users',
  summary: 'Internal users',
  verbs: [list, get, me, create, update, remove, setPassword, invite, acceptInvite, embedTheme],
};
