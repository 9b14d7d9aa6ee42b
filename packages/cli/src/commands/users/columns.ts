import type { Column } from '../../core/output.js';

export const userColumns: Column[] = [
  ['ID', 'id'],
  ['Email', 'email'],
  ['Name', 'displayName'],
  ['Title', 'title'],
  ['Role', 'role'],
  ['Active', 'active'],
  ['Last login', 'lastLogin'],
];
