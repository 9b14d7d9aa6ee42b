import type { Column } from '../../core/output.js';

export const deploymentColumns: Column[] = [
  ['ID', 'id'],
  ['Name', 'name'],
  ['Region', 'region'],
  ['URL', 'deploymentUrl'],
  ['Step', 'creationStep'],
  ['Created', 'createdAt'],
];
