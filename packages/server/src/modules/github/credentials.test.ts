import { afterAll, describe, expect, it } from 'vitest';
import { describeOnStores, type TestAccount } from '../../test-support/server.js';
import { splitCredentials } from './source.js';
import { connect, connectedDeployment, filesOf, githubFixture, newDeployment, signedDelivery } from './test-fixtures.js';
import { countCube } from '../../test-support/models.js';

const fixture = await githubFixture();
afterAll(() => fixture.close());

describe('splitCredentials', () => {
  it.each([
    [
      'https://x-access-token:ghs_abc@github.com/acme/shop.git',
      'https://github.com/acme/shop.git',
      { username: 'x-access-token', password: 'ghs_abc' },
    ],
    ['https://ghp_tokenonly@github.com/acme/shop.git', 'https://github.com/acme/shop.git', { username: 'ghp_tokenonly', password: '' }],
    ['http://me:p%40ss%3Aw@git.internal:8080/a/b.git', 'http://git.internal:8080/a/b.git', { username: 'me', password: 'p@ss:w' }],
    ['HTTPS://me:p@ss@host/r.git', 'HTTPS://host/r.git', { username: 'me', password: 'p@ss' }],
    ['https://github.com/acme/shop.git', 'https://github.com/acme/shop.git', null],
    ['https://host/path@with-at/r.git', 'https://host/path@with-at/r.git', null],
    // An ssh user is a login name, not a secret, and git over ssh takes no password from the URL.
    ['ssh://git@github.com/acme/shop.git', 'ssh://git@github.com/acme/shop.git', null],
    ['git@github.com:acme/shop.git', 'git@github.com:acme/shop.git', null],
    ['/srv/git/shop', '/srv/git/shop', null],
  ])('%s', (given, repository, credentials) => {
    expect(splitCredentials(given)).toEqual({ repository, credentials });
  });

  it('a malformed %-escape is a 400 naming it', () => {
    expect(() => splitCredentials('https://me:100%zz@host/r.git')).toThrow(/malformed %-escape/);
  });
});

describeOnStores(
  'GitHub connection by a URL with a token in it',
  (server) => {
    const rowOf = (id: number) =>
      server().store.db.selectFrom('github_connection').selectAll().where('deployment_id', '=', id).executeTakeFirstOrThrow();
    /**
     * A deployment, a new repository of the installation, its URL without credentials, and the same URL
     * with a token the stand-in takes for it (issued to the installation, as a personal token would be).
     */
    const tokenedRepository = async (account: TestAccount, prefix: string) => {
      const name = `${prefix}-${server().kind}`;
      const repo = await fixture.addRepository(name, { 'model/orders.yml': countCube('orders') });
      await connectedDeployment(account);
      const token = fixture.standIn.tokens.at(-1)!;
      const plain = `${fixture.standIn.url}/acme/${name}.git`;
      return { name, repo, token, plain, withToken: plain.replace('://', `://x-access-token:${token}@`), id: await newDeployment(account) };
    };

    it('clones with the token, stores it sealed, shows it nowhere, and a push naming the plain URL imports with it', async () => {
      const account = await server().newAccount();
      const { name, repo, token, plain, withToken, id } = await tokenedRepository(account, 'tokened');
      const connected = await connect(account, id, { repository: withToken, branch: 'main' });
      expect(connected.status).toBe(201);
      expect(connected.body.connection).toMatchObject({ repository: plain, cloneUrl: plain, installationId: null });
      const row = await rowOf(id);
      expect(row.repository).toBe(plain);
      expect(row.repository_credentials).toMatch(/^v1\./);
      expect(row.repository_credentials).not.toContain(token);
      const shown = [
        connected.text,
        (await account.request({ method: 'GET', url: `/api/v1/deployments/${id}/github`, as: account.admin })).text,
        (await account.request({ method: 'GET', url: '/api/v1/github', as: account.admin })).text,
        JSON.stringify(await server().store.db.selectFrom('model_commit').select('message').where('deployment_id', '=', id).execute()),
      ];
      for (const text of shown) expect(text).not.toContain(token);

      const sha = await repo.commit({ 'model/items.yml': countCube('items') }, 'items');
      const push = signedDelivery('push', {
        ref: 'refs/heads/main',
        after: sha,
        repository: { full_name: `acme/${name}`, clone_url: plain },
      });
      const received = await account.request({ method: 'POST', url: '/api/v1/github/webhook', body: push.body, headers: push.headers });
      expect(received.body).toMatchObject({ status: 'queued', imports: [{ deploymentId: id }] });
      await server().jobs.runUntilIdle();
      expect(await rowOf(id)).toMatchObject({ last_commit_sha: sha, last_error: null });
      expect(Object.keys(await filesOf(server(), account, id)).sort()).toEqual(['model/items.yml', 'model/orders.yml']);
    });

    it('a connection stored before credentials were sealed still imports with the token in its URL', async () => {
      const account = await server().newAccount();
      const { repo, token, plain, withToken, id } = await tokenedRepository(account, 'legacy');
      expect((await connect(account, id, { repository: withToken, branch: 'main' })).status).toBe(201);
      await server()
        .store.db.updateTable('github_connection')
        .set({ repository: withToken, repository_credentials: null })
        .where('deployment_id', '=', id)
        .execute();

      const sha = await repo.commit({ 'model/items.yml': countCube('items') }, 'items');
      await account.request({ method: 'POST', url: `/api/v1/deployments/${id}/github/sync`, as: account.admin });
      await server().jobs.runUntilIdle();
      expect(await rowOf(id)).toMatchObject({ last_commit_sha: sha, last_error: null });
      const view = await account.request({ method: 'GET', url: `/api/v1/deployments/${id}/github`, as: account.admin });
      expect(view.body).toMatchObject({ repository: plain, cloneUrl: plain });
      const messages = await server().store.db.selectFrom('model_commit').select('message').where('deployment_id', '=', id).execute();
      expect(JSON.stringify(messages)).not.toContain(token);
    });

    it('a URL with a wrong token is a 400 naming the plain URL, and nothing is stored', async () => {
      const account = await server().newAccount();
      const plain = `${fixture.standIn.url}/acme/shop.git`;
      const id = await newDeployment(account);
      const refused = await connect(account, id, { repository: plain.replace('://', '://x-access-token:ghs_wrong@'), branch: 'main' });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatch(/Authentication .* failed/);
      expect(refused.text).not.toContain('ghs_wrong');
      expect(
        await server().store.db.selectFrom('github_connection').select('deployment_id').where('deployment_id', '=', id).execute(),
      ).toEqual([]);
    });
  },
  fixture.env,
);
