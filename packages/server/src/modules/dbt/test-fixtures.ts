import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createGitRepo, type TestGitRepo } from '../../git/test-repos.js';
import type { TestAccount, TestServer, TestResponse } from '../../test-support/server.js';
import { newDeployment } from '../builds/test-fixtures.js';
import { sampleDbtProjectFiles } from './project/fixtures.js';

/** A Git repository holding the sample dbt project (over `writeSample`'s tables) in `folder`, committed on main. */
export async function sampleDbtRepo(folder = '', options: { manifest?: boolean } = {}): Promise<TestGitRepo> {
  const files = Object.entries(sampleDbtProjectFiles(options)).map(([path, text]) => [folder ? `${folder}/${path}` : path, text]);
  return createGitRepo({ 'README.md': '# analytics\n', ...Object.fromEntries(files) });
}

/** Rewrites one file of a test repository in place (read, change, write); the caller commits. */
export async function editFile(repo: TestGitRepo, path: string, change: (text: string) => string): Promise<void> {
  const file = join(repo.dir, path);
  await writeFile(file, change(await readFile(file, 'utf8')));
}

export const dbtBase = (deploymentId: number) => `/build/api/v1/deployments/${deploymentId}/dbt`;

/** A new deployment of a new account, connected to `repository`. */
export async function connected(server: TestServer, repository: string, extra: Record<string, string> = {}) {
  const account = await server.newAccount();
  const deploymentId = await newDeployment(account);
  const base = dbtBase(deploymentId);
  const connect = await account.request({ method: 'PUT', url: base, as: account.admin, body: { repository, ...extra } });
  if (connect.status !== 200) throw new Error(`connect: ${connect.status} ${connect.text}`);
  return { account, deploymentId, base };
}

export async function startSync(account: TestAccount, base: string, body: Record<string, unknown> = {}): Promise<TestResponse> {
  return account.request({ method: 'POST', url: `${base}/syncs`, as: account.admin, body });
}

export async function syncStatus(account: TestAccount, base: string, syncJobId: number): Promise<TestResponse> {
  return account.request({ method: 'GET', url: `${base}/syncs/${syncJobId}`, as: account.admin });
}
