import type { Group } from '../../core/define.js';
import { create } from './create.js';
import { remove } from './delete.js';
import { exchange } from './exchange.js';
import { get } from './get.js';
import { list } from './list.js';
import { update } from './update.js';

export const group: Group = {
  name: 'oidc',
  summary: 'OIDC token configs: issuers whose ID tokens users may exchange for access tokens',
  verbs: [list, get, create, update, remove, exchange],
};
