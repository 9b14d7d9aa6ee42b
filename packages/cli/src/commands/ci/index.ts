import type { Group } from '../../core/define.js';
import { dbtGate } from './dbt-gate.js';

export const group: Group = {
  name: 'ci',
  summary: 'Continuous integration: the dbt gate',
  verbs: [dbtGate],
};
