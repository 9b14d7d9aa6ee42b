import type { ApiKeyPrincipal } from '../../http/principal.js';
import type { Services } from '../../services.js';
import type { TestAccount } from '../../test-support/server.js';

/** The admin's API key as the services see it. */
export function adminOf(account: TestAccount): ApiKeyPrincipal {
  return {
    kind: 'apiKey',
    accountId: account.id,
    credentialId: account.admin.apiKeyId,
    userId: account.admin.id,
    role: 'admin',
    deploymentIds: null,
  };
}

export async function newDeployment(account: TestAccount): Promise<number> {
  const created = await account.request({ method: 'POST', url: '/api/v1/deployments', as: account.admin, body: { name: 'd' } });
  return created.body.id as number;
}

/** Commits `files` as the whole tree of `branch` (created from main when missing); answers the commit and its build. */
export async function commitFiles(
  services: Services,
  principal: ApiKeyPrincipal,
  deploymentId: number,
  files: Record<string, string>,
  branchName = 'main',
): Promise<{ commitId: number; buildId: number | null }> {
  const branch = await services.dataModel.target(principal, deploymentId, branchName);
  const paths = Object.keys(files);
  const hashes = await services.dataModel.storeBlobs(principal.accountId, Object.values(files));
  const entries = Object.fromEntries(paths.map((path, i) => [path, hashes[i]!]));
  return services.dataModel.commitTree(principal, branch, {
    entries,
    baseCommitId: Number(branch.head_commit_id),
    message: 'test',
    build: 'deploy',
  });
}

/** A shared branch made through the API, so it is made as a person would. */
export async function createBranch(account: TestAccount, deploymentId: number, name: string, devMode = false): Promise<void> {
  const response = await account.request({
    method: 'POST',
    url: `/build/api/v1/deployments/${deploymentId}/branches`,
    as: account.admin,
    body: { name, ...(devMode ? { devMode: true } : {}) },
  });
  if (response.status !== 201) throw new Error(`create-branch ${name}: ${response.status} ${response.text}`);
}

/** Opens a dev-mode session for the admin; answers the dev branch's name. */
export async function enterDevMode(account: TestAccount, deploymentId: number, from = 'main'): Promise<string> {
  const response = await account.request({
    method: 'POST',
    url: `/build/api/v1/deployments/${deploymentId}/dev-mode`,
    as: account.admin,
    body: { branch: from },
  });
  if (response.status !== 200) throw new Error(`dev-mode: ${response.status} ${response.text}`);
  return response.body.branchName as string;
}
