import type { Group } from '../../core/define.js';
import { createMetaSyncToken } from './create-meta-sync-token.js';
import { createToken } from './create-token.js';
import { list } from './list.js';
import { rotateSqlPassword } from './rotate-sql-password.js';
import { tokens } from './tokens.js';

export const group: Group = {
  name: 'environments',
  summary: 'Environments of a deployment, their tokens and SQL passwords',
  verbs: [list, tokens, createToken, createMetaSyncToken, rotateSqlPassword],
};
