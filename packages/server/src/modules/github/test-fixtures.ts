import { createHmac } from 'node:crypto';
import { createGitRepo, type TestGitRepo } from '../../git/test-repos.js';
import type { TestAccount, TestServer } from '../../test-support/server.js';
import { startGithubStandIn, type GithubStandIn } from './stand-in.js';
import { countCube } from '../../test-support/models.js';

/** For the GitHub tests: the installation and repository every fixture serves. */
export const INSTALLATION = 101;
export const REPOSITORY = 'acme/shop';
export const WEBHOOK_SECRET = 'whsec-plinth-test-secret';

export interface GithubFixture {
  standIn: GithubStandIn;
  shop: TestGitRepo;
  /** Server config pointing at the stand-in, with the webhook secret. */
  env: Record<string, string>;
  /** A new repository of the installation (`acme/<name>`), for a test that pushes to it. */
  addRepository(name: string, files: Record<string, string>, branch?: string): Promise<TestGitRepo>;
  close(): Promise<void>;
}

/**
 * A stand-in GitHub (Enterprise-style, the REST API under `/api/v3`) with installation 101 on
 * `acme` holding `acme/shop` (a data model under `model/` plus files outside it) and a few more
 * repositories, so listings span pages; installation 202 on `globex` holds none.
 */
export async function githubFixture(apiPrefix = '/api/v3'): Promise<GithubFixture> {
  const shop = await createGitRepo({ 'model/cubes/orders.yml': countCube('orders'), 'README.md': '# shop\n', 'ci/run.sh': 'echo\n' });
  const extras = await Promise.all(['one', 'two', 'three'].map((n) => createGitRepo({ [`model/${n}.yml`]: countCube(n) })));
  const standIn = await startGithubStandIn({
    apiPrefix,
    maxPerPage: 2,
    installations: [
      {
        id: INSTALLATION,
        account: 'acme',
        repositories: [
          { owner: 'acme', name: 'shop', dir: shop.dir },
          ...extras.map((r, i) => ({ owner: 'acme', name: `extra-${i}`, dir: r.dir })),
        ],
      },
      { id: 202, account: 'globex', repositories: [] },
    ],
  });
  const made: TestGitRepo[] = [shop, ...extras];
  return {
    standIn,
    shop,
    env: standIn.env({ PLINTH_GITHUB_WEBHOOK_SECRET: WEBHOOK_SECRET }),
    async addRepository(name, files, branch) {
      const repo = await createGitRepo(files, branch ? { branch } : {});
      made.push(repo);
      standIn.installations[0]!.repositories.push({ owner: 'acme', name, dir: repo.dir, ...(branch ? { defaultBranch: branch } : {}) });
      return repo;
    },
    async close() {
      await standIn.close();
      await Promise.all(made.map((r) => r.remove()));
    },
  };
}

export async function newDeployment(account: TestAccount): Promise<number> {
  const created = await account.request({ method: 'POST', url: '/api/v1/deployments', as: account.admin, body: { name: 'd' } });
  return created.body.id as number;
}

/** A deployment of the account connected to acme/shop through the installation. */
export async function connectedDeployment(account: TestAccount): Promise<number> {
  const id = await newDeployment(account);
  const connected = await account.request({
    method: 'POST',
    url: `/api/v1/deployments/${id}/github`,
    as: account.admin,
    body: { repository: REPOSITORY, installationId: INSTALLATION, branch: 'main' },
  });
  if (connected.status !== 201) throw new Error(`connect failed: ${connected.text}`);
  return id;
}

const connectedOnce = new WeakMap<TestAccount, Promise<number>>();

/**
 * One connected deployment per account, for operations that only read it: connecting clones the
 * repository, and the authorisation suite prepares a request many times per account.
 */
export function sharedConnectedDeployment(account: TestAccount): Promise<number> {
  let id = connectedOnce.get(account);
  if (!id) connectedOnce.set(account, (id = connectedDeployment(account)));
  return id;
}

/** Headers GitHub sends with a delivery, signed with `secret`. */
export function signedDelivery(event: string, payload: unknown, secret = WEBHOOK_SECRET) {
  const body = JSON.stringify(payload);
  const signature = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-github-event': event,
      'x-github-delivery': 'delivery-1',
      'x-hub-signature-256': signature,
    },
  };
}

/** A push payload as GitHub sends it for an installation's repository. */
export function pushPayload(fullName: string, branch: string, after: string, installationId = INSTALLATION) {
  return {
    ref: `refs/heads/${branch}`,
    before: '0'.repeat(40),
    after,
    deleted: false,
    repository: { full_name: fullName, name: fullName.split('/')[1], clone_url: `https://github.example/${fullName}.git` },
    installation: { id: installationId },
    sender: { login: 'dev' },
  };
}

/** connectGithub as the account's admin. */
export const connect = (account: TestAccount, id: number, body: unknown) =>
  account.request({ method: 'POST', url: `/api/v1/deployments/${id}/github`, as: account.admin, body });

/** The deploy branch's files of a deployment, path to content. */
export async function filesOf(server: TestServer, account: TestAccount, id: number): Promise<Record<string, string>> {
  const main = await server.services.dataModel.branch(account.id, id, 'main');
  return Object.fromEntries(await server.services.dataModel.filesAt(account.id, Number(main.head_commit_id)));
}
