import type { Group } from '../../core/define.js';
import { cancel } from './cancel.js';
import { connect } from './connect.js';
import { disconnect } from './disconnect.js';
import { result } from './result.js';
import { show } from './show.js';
import { status } from './status.js';
import { sync } from './sync.js';

export const group: Group = {
  name: 'dbt',
  summary: 'dbt sync: connect a dbt project, generate cubes from it onto a branch, follow the sync',
  verbs: [connect, show, disconnect, sync, status, result, cancel],
};
