import type { Column } from '../../core/output.js';

export const userColumns: Column[] = [
  ['ID', 'id'],
  ['Email', 'email'],
  ['Name', 'displayName'],
  ['Role', 'role'],
  ['Active', 'active'],
];
