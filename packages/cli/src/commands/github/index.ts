import type { Group } from '../../core/define.js';
import { branches } from './branches.js';
import { connect } from './connect.js';
import { disconnect } from './disconnect.js';
import { installations } from './installations.js';
import { repos } from './repos.js';
import { show } from './show.js';
import { status } from './status.js';
import { sync } from './sync.js';

export const group: Group = {
  name: 'github',
  summary: 'GitHub: the App, its installations and repositories, and deployments connected to them',
  verbs: [status, installations, repos, branches, connect, show, sync, disconnect],
};
