import { sampleModelFiles } from '@plinth/semantic';
import { beforeAll, expect, it, vi } from 'vitest';
import { describeOnStores, type TestAccount, type TestServer, type TestUser } from '../../test-support/server.js';
import { adminOf, commitFiles, createBranch } from '../builds/test-fixtures.js';
import { dataDirOverride, environmentToken, mint, withStaging } from './test-fixtures.js';

const QUERY = { measures: ['orders.count'] };

/** The branches a data API URL can name, as seen by the account's admin key. */
const BRANCHES = ['deploy', 'deploy by name', 'own dev', "another key's dev", 'staging', 'not enabled', 'unknown'] as const;
type Branch = (typeof BRANCHES)[number];

/** Each kind of token, and the only branches it was minted for. */
const TOKENS: Array<[string, Branch[]]> = [
  ['production data token of the admin key', ['deploy', 'deploy by name']],
  ['production data token of another key', ['deploy', 'deploy by name']],
  ['embed token', ['deploy', 'deploy by name']],
  ["deploymentToken with branch (the admin key's dev branch)", ['own dev']],
  ["deploymentToken with branch of another key (that key's dev branch)", ["another key's dev"]],
  ["development environment token (the admin key's dev branch)", ['own dev']],
  ['staging environment token', ['staging']],
  ['production environment token', ['deploy', 'deploy by name']],
];

const ROUTES = ['GET load', 'meta'] as const;

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Cube's `Invalid token`, then which branch was asked for. */
const refusal = (name: string) => new RegExp(`^Invalid token for (the deploy branch \\(${escaped(name)}\\)|branch ${escaped(name)}):`);

/** A dev branch of `user`'s key, built from the sample model like every other branch here. */
async function devBranchOf(server: TestServer, account: TestAccount, deploymentId: number, user: TestUser): Promise<string> {
  const entered = await account.request({
    method: 'POST',
    url: `/build/api/v1/deployments/${deploymentId}/dev-mode`,
    as: user,
    body: { branch: 'main' },
  });
  expect(entered.status, entered.text).toBe(200);
  const name = entered.body.branchName as string;
  const principal = { ...adminOf(account), credentialId: user.apiKeyId, userId: user.id };
  await commitFiles(server.services, principal, deploymentId, sampleModelFiles(), name);
  return name;
}

async function embedToken(account: TestAccount, deploymentId: number): Promise<string> {
  const generated = await account.request({
    method: 'POST',
    url: '/api/v1/embed/generate-session',
    as: account.admin,
    body: { deploymentId, externalId: 'ann' },
  });
  expect(generated.status, generated.text).toBe(200);
  const { sessionId } = generated.body;
  const exchanged = await account.request({ method: 'POST', url: '/api/v1/embed/session/token', body: { sessionId } });
  expect(exchanged.status, exchanged.text).toBe(200);
  return exchanged.body.token as string;
}

/** A deployment built on every kind of branch, and a token of every kind. */
async function everyBranch(server: TestServer) {
  const { account, deploymentId, production, staging } = await withStaging(server);
  const other = await account.addUser('admin');
  const ownDev = await devBranchOf(server, account, deploymentId, account.admin);
  const otherDev = await devBranchOf(server, account, deploymentId, other);
  // Built too: only being enabled as a staging environment puts a shared branch on the data API.
  await createBranch(account, deploymentId, 'draft');
  await commitFiles(server.services, adminOf(account), deploymentId, sampleModelFiles(), 'draft');
  await server.jobs.runUntilIdle();

  const environments = await account.request({ method: 'GET', url: `/api/v1/deployments/${deploymentId}/environments`, as: account.admin });
  const development = environments.body.data.find((e: { branch: string }) => e.branch === ownDev) as { id: string };
  const minted = [
    await mint(account, deploymentId),
    await mint(account, deploymentId, {}, other),
    await embedToken(account, deploymentId),
    await mint(account, deploymentId, { branch: ownDev }),
    await mint(account, deploymentId, { branch: otherDev }, other),
    await environmentToken(account, deploymentId, development.id),
    await environmentToken(account, deploymentId, staging.id),
    await environmentToken(account, deploymentId, production.id),
  ];
  const tokens = new Map(TOKENS.map(([kind], index) => [kind, minted[index]!]));
  const names: Record<Branch, string | undefined> = {
    deploy: undefined,
    'deploy by name': 'main',
    'own dev': ownDev,
    "another key's dev": otherDev,
    staging: 'staging',
    'not enabled': 'draft',
    unknown: 'nope',
  };
  const base = (branch: Branch) => {
    const name = names[branch];
    return name === undefined
      ? `/d/${deploymentId}/cubejs-api/v1`
      : `/d/${deploymentId}/dev-mode/${encodeURIComponent(name)}/cubejs-api/v1`;
  };
  return { account, deploymentId, tokens, names, base };
}

describeOnStores(
  'a data API token reaches exactly the branch it was minted for',
  (server) => {
    let d: Awaited<ReturnType<typeof everyBranch>>;
    beforeAll(async () => {
      d = await everyBranch(server());
    });

    const url = (branch: Branch, route: (typeof ROUTES)[number]) =>
      route === 'meta' ? `${d.base(branch)}/meta` : `${d.base(branch)}/load?query=${encodeURIComponent(JSON.stringify(QUERY))}`;

    it.each(TOKENS)('%s', async (name, reaches) => {
      const token = d.tokens.get(name)!;
      const answered: string[] = [];
      const expected: string[] = [];
      const unnamed: string[] = [];
      for (const branch of BRANCHES) {
        for (const route of ROUTES) {
          const response = await d.account.request({ method: 'GET', url: url(branch, route), as: token });
          answered.push(`${branch}, ${route}: ${response.status}`);
          expected.push(`${branch}, ${route}: ${reaches.includes(branch) ? 200 : 403}`);
          // A refusal names the branch asked for, in Cube's shape.
          const error = response.body?.error;
          const named = Object.keys(response.body ?? {}).length === 1 && refusal(d.names[branch] ?? 'main').test(error);
          if (response.status === 403 && !named) unnamed.push(`${branch}, ${route}: ${response.text}`);
        }
      }
      expect(answered).toEqual(expected);
      expect(unnamed).toEqual([]);
    });

    it('every data API route refuses a branch alike, and serves the branch the token was minted for', async () => {
      const production = d.tokens.get(TOKENS[0]![0])!;
      const dev = d.tokens.get(TOKENS[3]![0])!;
      const query = encodeURIComponent(JSON.stringify(QUERY));
      const routes = (base: string) => [
        { method: 'GET' as const, url: `${base}/load?query=${query}` },
        { method: 'POST' as const, url: `${base}/load`, body: { query: QUERY } },
        { method: 'GET' as const, url: `${base}/sql?query=${query}` },
        { method: 'POST' as const, url: `${base}/sql`, body: { query: QUERY } },
        { method: 'GET' as const, url: `${base}/dry-run?query=${query}` },
        { method: 'POST' as const, url: `${base}/dry-run`, body: { query: QUERY } },
        { method: 'GET' as const, url: `${base}/meta` },
        { method: 'POST' as const, url: `${base}/cubesql`, body: { query: 'SELECT MEASURE(count) FROM orders' } },
      ];
      const answers = async (base: string, token: string) => {
        const answered = [];
        for (const route of routes(base)) {
          const response = await d.account.request({ ...route, as: token });
          answered.push([route.method, route.url.replace(/\?.*/, ''), response.status, response.status === 200 ? 'ok' : response.body]);
        }
        return answered;
      };
      const each = (base: string, status: number, body: unknown) =>
        routes(base).map((route) => [route.method, route.url.replace(/\?.*/, ''), status, body]);
      const stagingRefusal = {
        error:
          'Invalid token for branch staging: a data API token minted without a branch opens the deploy branch only; mint one for this branch (deploymentToken with branch, or an environment token)',
      };
      expect(await answers(d.base('staging'), production)).toEqual(each(d.base('staging'), 403, stagingRefusal));
      const deployRefusal = { error: 'Invalid token for the deploy branch (main): this token opens only the branch it was minted for' };
      expect(await answers(d.base('deploy'), dev)).toEqual(each(d.base('deploy'), 403, deployRefusal));
      expect(await answers(d.base('own dev'), dev)).toEqual(each(d.base('own dev'), 200, 'ok'));
      expect(await answers(d.base('deploy'), production)).toEqual(each(d.base('deploy'), 200, 'ok'));
    });

    it("the response cache never gives a token's answer on a branch it was not minted for", async () => {
      const production = d.tokens.get(TOKENS[0]![0])!;
      const query = encodeURIComponent(JSON.stringify({ ...QUERY, dimensions: ['orders.status'] }));
      const get = (branch: Branch) => d.account.request({ method: 'GET', url: `${d.base(branch)}/load?query=${query}`, as: production });
      // `load` itself is where a branch is refused now; what must never happen is a query reaching the executor (the result cache).
      const runs = vi.spyOn(server().services.dataApi.executor, 'run');
      try {
        const first = await get('deploy');
        expect(first.status, first.text).toBe(200);
        // The same request again is the response cache's (response-cache.test.ts shows it runs no load of its own).
        expect((await get('deploy')).text).toBe(first.text);
        const warmed = runs.mock.calls.length;
        for (const branch of ['own dev', "another key's dev", 'staging'] as const) {
          for (let i = 0; i < 2; i++) expect((await get(branch)).status, branch).toBe(403);
        }
        // Refused before the query reaches the result cache, every time.
        expect(runs).toHaveBeenCalledTimes(warmed);
      } finally {
        runs.mockRestore();
      }
    });
  },
  dataDirOverride(),
);
