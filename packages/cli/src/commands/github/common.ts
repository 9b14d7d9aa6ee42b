import { UsageError } from '../../core/errors.js';
import { positiveInt } from '../../core/body.js';
import type { Column } from '../../core/output.js';
import { id } from '../../core/rest.js';

export const connectionPath = (deploymentId: string | undefined) => `/api/v1/deployments/${id(deploymentId, 'deployment_id')}/github`;

export const connectionFields: Column[] = [
  ['Deployment', 'deploymentId'],
  ['Repository', 'repository'],
  ['Installation', 'installationId'],
  ['Branch', 'branch'],
  ['Directory', 'directory'],
  ['Clone URL', 'cloneUrl'],
  ['Last commit', 'lastCommitSha'],
  ['Last build', 'lastBuildId'],
  ['Last import', 'lastImportedAt'],
  ['Last error', 'lastError'],
];

export const connectionColumns: Column[] = [
  ['Deployment', 'deploymentId'],
  ['Repository', 'repository'],
  ['Branch', 'branch'],
  ['Directory', 'directory'],
  ['Last commit', (row) => (row.lastCommitSha ? String(row.lastCommitSha).slice(0, 7) : '')],
  ['Last error', 'lastError'],
];

export const installationOption = {
  flags: '--installation <id>',
  description: 'Installation id of the GitHub App (see plinth github installations)',
} as const;

export const installationId = (value: string | undefined) => positiveInt(value ?? '', '--installation');

/** `owner/repo` as GitHub names it; checked here so a typo is a usage error, not a request. */
export function ownerRepo(value: string | undefined): { owner: string; repo: string } {
  const match = /^([A-Za-z0-9_.-]{1,100})\/([A-Za-z0-9_.-]{1,100})$/.exec(value ?? '');
  if (!match) throw new UsageError(`<owner/repo> expects owner/repo, got ${JSON.stringify(value ?? '')}`);
  return { owner: match[1]!, repo: match[2]! };
}
