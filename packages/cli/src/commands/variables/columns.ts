import type { Column } from '../../core/output.js';

/** Secrets arrive masked from the server; the CLI never sees their values. */
export const variableColumns: Column[] = [
  ['Name', 'name'],
  ['Value', 'value'],
];

export const variablesPath = (deploymentId: number) => `/api/v1/deployments/${deploymentId}/variables`;
