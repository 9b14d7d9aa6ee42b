import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { authorizationSuite } from '../../test-support/authorization.js';
import { describeOnStores } from '../../test-support/server.js';
import { cases } from './authorization.cases.js';
import {
  connect,
  filesOf,
  githubFixture,
  INSTALLATION,
  newDeployment,
  pushPayload,
  REPOSITORY,
  signedDelivery,
  WEBHOOK_SECRET,
} from './test-fixtures.js';
import { countCube } from '../../test-support/models.js';

const execFileAsync = promisify(execFile);

const fixture = await githubFixture();
afterAll(() => fixture.close());

describeOnStores(
  'GitHub connection',
  (server) => {
    const buildStatus = async (buildId: number) =>
      (await server().store.db.selectFrom('model_build').select('status').where('id', '=', buildId).executeTakeFirstOrThrow()).status;
    const commitCount = async (id: number) =>
      (await server().store.db.selectFrom('model_commit').select('id').where('deployment_id', '=', id).execute()).length;

    it('status, installations, repositories (all pages) and branches through the API, with the headers GitHub requires', async () => {
      const account = await server().newAccount();
      const status = await account.request({ method: 'GET', url: '/api/v1/github', as: account.member });
      expect(status.body).toEqual({
        configured: true,
        apiUrl: fixture.standIn.apiUrl,
        webhookConfigured: true,
        app: { id: fixture.standIn.appId, slug: 'plinth-test', name: 'Plinth Test', owner: 'acme', htmlUrl: expect.any(String) },
        error: null,
        connections: [],
      });
      const installations = await account.request({ method: 'GET', url: '/api/v1/github/installations', as: account.admin });
      expect(installations.body.items.map((i: any) => [i.id, i.account, i.accountType, i.suspended])).toEqual([
        [INSTALLATION, 'acme', 'Organization', false],
        [202, 'globex', 'Organization', false],
      ]);
      const repos = await account.request({
        method: 'GET',
        url: `/api/v1/github/installations/${INSTALLATION}/repositories`,
        as: account.admin,
      });
      // Two per page at the stand-in: four repositories take two pages, followed through Link.
      expect(repos.body.items.map((r: any) => r.fullName).slice(0, 4)).toEqual([
        'acme/shop',
        'acme/extra-0',
        'acme/extra-1',
        'acme/extra-2',
      ]);
      expect(repos.body.items[0]).toMatchObject({
        name: 'shop',
        private: true,
        defaultBranch: 'main',
        cloneUrl: `${fixture.standIn.url}/acme/shop.git`,
      });
      const branches = await account.request({
        method: 'GET',
        url: `/api/v1/github/repositories/${REPOSITORY}/branches?installationId=${INSTALLATION}`,
        as: account.admin,
      });
      expect(branches.body.items).toContainEqual({ name: 'main', commitSha: await fixture.shop.head(), protected: false });
      for (const request of fixture.standIn.requests) {
        expect(request.headers.accept).toBe('application/vnd.github+json');
        expect(request.headers['x-github-api-version']).toBe('2022-11-28');
        expect(request.headers['user-agent']).toBe('plinth-server');
      }
      expect(
        fixture.standIn.requests.some((r) => r.path === '/installation/repositories' && r.headers.authorization?.startsWith('token ghs_')),
      ).toBe(true);
    });

    it('4.8 github: connect clones the repository, imports the folder onto the deploy branch in one commit, triggers the first build, and sets creationMethod', async () => {
      const account = await server().newAccount();
      const id = await newDeployment(account);
      await server().services.dataModel.branch(account.id, id, 'main');
      const before = await commitCount(id);
      const connected = await connect(account, id, { repository: REPOSITORY, installationId: INSTALLATION, branch: 'main' });
      expect(connected.status, connected.text).toBe(201);
      expect(connected.body).toMatchObject({
        commitSha: await fixture.shop.head(),
        changed: true,
        files: 1,
        connection: {
          deploymentId: id,
          repository: REPOSITORY,
          installationId: INSTALLATION,
          branch: 'main',
          directory: 'model',
          lastError: null,
        },
      });
      expect(connected.body.connection.cloneUrl).toBe(`${fixture.standIn.url}/acme/shop.git`);
      // Only the data model folder: README.md and ci/ stay in the repository.
      expect(await filesOf(server(), account, id)).toEqual({ 'model/cubes/orders.yml': countCube('orders') });
      expect(await commitCount(id)).toBe(before + 1);
      await server().jobs.runUntilIdle();
      expect(await buildStatus(connected.body.buildId)).toBe('built');
      const shown = await account.request({ method: 'GET', url: `/api/v1/deployments/${id}/github`, as: account.member });
      expect(shown.body).toEqual(connected.body.connection);
      const settings = await account.request({ method: 'GET', url: `/api/v1/deployments/${id}/settings`, as: account.admin });
      expect(settings.body.creationMethod).toBe('github');
      const status = await account.request({ method: 'GET', url: '/api/v1/github', as: account.admin });
      expect(status.body.connections.map((c: any) => c.deploymentId)).toEqual([id]);
    });

    it('connect takes another folder and branch, or any git path without an installation', async () => {
      const account = await server().newAccount();
      const repo = await fixture.addRepository(`analytics-${server().kind}`, { 'analytics/model/items.yml': countCube('items') }, 'trunk');
      const id = await newDeployment(account);
      const body = {
        repository: `acme/analytics-${server().kind}`,
        installationId: INSTALLATION,
        branch: 'trunk',
        directory: 'analytics/model',
      };
      expect((await connect(account, id, body)).status).toBe(201);
      expect(await filesOf(server(), account, id)).toEqual({ 'model/items.yml': countCube('items') });

      const local = await newDeployment(account);
      const byPath = await connect(account, local, { repository: repo.dir, branch: 'trunk', directory: 'analytics' });
      expect(byPath.status, byPath.text).toBe(201);
      expect(byPath.body.connection).toMatchObject({
        installationId: null,
        repository: repo.dir,
        cloneUrl: repo.dir,
        directory: 'analytics',
      });
      expect(await filesOf(server(), account, local)).toEqual({ 'model/model/items.yml': countCube('items') });
    });

    it.each([
      ['a folder through a link to / (l/etc)', 'l', '/', 'l/etc', 'The path "l/etc" is a link to outside the repository'],
      ['a link to / as the folder itself', 'model', '/etc', 'model', 'The path "model" is a link to outside the repository'],
      ['a link out inside the folder', 'model/passwd.yml', '/etc/passwd', 'model', 'The path "model/passwd.yml" is a link to outside'],
    ])(
      'a repository with %s is a 400 naming the link, and none of the server’s files are imported',
      async (_, link, target, directory, message) => {
        const account = await server().newAccount();
        const repo = await fixture.addRepository(`links-${link.replace(/\W/g, '-')}-${server().kind}`, { 'model/a.yml': countCube('a') });
        await rm(join(repo.dir, link), { recursive: true, force: true });
        await symlink(target, join(repo.dir, link));
        await repo.commit({}, 'a link out of the repository');
        const id = await newDeployment(account);
        const commits = await commitCount(id);
        const refused = await connect(account, id, { repository: repo.dir, branch: 'main', directory });
        expect(refused.status, refused.text).toBe(400);
        expect(refused.body.error).toContain(message);
        expect(await commitCount(id)).toBe(commits);
        expect(JSON.stringify(await filesOf(server(), account, id))).not.toContain('root:');
      },
    );

    it('a signed push to the connected branch imports the new commit and builds it; a push changing nothing outside the folder builds nothing', async () => {
      const account = await server().newAccount();
      const name = `pushed-${server().kind}`;
      const repo = await fixture.addRepository(name, { 'model/orders.yml': countCube('orders') });
      const id = await newDeployment(account);
      expect((await connect(account, id, { repository: `acme/${name}`, installationId: INSTALLATION, branch: 'main' })).status).toBe(201);
      await server().jobs.runUntilIdle();

      const sha = await repo.commit({ 'model/items.yml': countCube('items') }, 'add items');
      const delivery = signedDelivery('push', pushPayload(`acme/${name}`, 'main', sha));
      const received = await account.request({
        method: 'POST',
        url: '/api/v1/github/webhook',
        body: delivery.body,
        headers: delivery.headers,
      });
      expect(received.status, received.text).toBe(202);
      expect(received.body).toMatchObject({ event: 'push', status: 'queued', imports: [{ deploymentId: id, jobId: expect.any(Number) }] });
      await server().jobs.runUntilIdle();
      expect(Object.keys(await filesOf(server(), account, id)).sort()).toEqual(['model/items.yml', 'model/orders.yml']);
      const shown = (await account.request({ method: 'GET', url: `/api/v1/deployments/${id}/github`, as: account.admin })).body;
      expect(shown).toMatchObject({ lastCommitSha: sha, lastError: null });
      expect(await buildStatus(shown.lastBuildId)).toBe('built');

      const commits = await commitCount(id);
      const other = await repo.commit({ 'README.md': 'docs\n' }, 'docs only');
      const again = signedDelivery('push', pushPayload(`acme/${name}`, 'main', other));
      await account.request({ method: 'POST', url: '/api/v1/github/webhook', body: again.body, headers: again.headers });
      await server().jobs.runUntilIdle();
      expect(await commitCount(id)).toBe(commits);
    });

    it('webhook: a bad or missing signature is 401 and queues nothing; ping is 200; other events and branches are ignored with a reason', async () => {
      const account = await server().newAccount();
      await newDeployment(account);
      const jobs = async () =>
        (await server().store.db.selectFrom('job').select('id').where('kind', '=', 'github.import').execute()).length;
      const before = await jobs();
      const push = signedDelivery('push', pushPayload(REPOSITORY, 'main', 'a'.repeat(40)), 'wrong-secret');
      const bad = await account.request({ method: 'POST', url: '/api/v1/github/webhook', body: push.body, headers: push.headers });
      expect(bad).toMatchObject({
        status: 401,
        body: { error: 'X-Hub-Signature-256 does not match the body signed with the webhook secret' },
      });
      const { 'x-hub-signature-256': _, ...unsigned } = push.headers;
      const missing = await account.request({ method: 'POST', url: '/api/v1/github/webhook', body: push.body, headers: unsigned });
      expect(missing).toMatchObject({ status: 401, body: { error: 'Missing X-Hub-Signature-256 header' } });
      // The signature is over the raw bytes: the same JSON re-spaced no longer matches.
      const good = signedDelivery('push', pushPayload(REPOSITORY, 'main', 'a'.repeat(40)));
      const respaced = await account.request({
        method: 'POST',
        url: '/api/v1/github/webhook',
        body: JSON.stringify(JSON.parse(good.body), null, 2),
        headers: good.headers,
      });
      expect(respaced.status).toBe(401);
      expect(await jobs()).toBe(before);

      const ping = signedDelivery('ping', { zen: 'Keep it logically awesome.', hook_id: 1 });
      expect(
        await account.request({ method: 'POST', url: '/api/v1/github/webhook', body: ping.body, headers: ping.headers }),
      ).toMatchObject({
        status: 200,
        body: { event: 'ping', status: 'pong', delivery: 'delivery-1' },
      });
      const issue = signedDelivery('issues', { action: 'opened' });
      expect(
        await account.request({ method: 'POST', url: '/api/v1/github/webhook', body: issue.body, headers: issue.headers }),
      ).toMatchObject({
        status: 202,
        body: { status: 'ignored', reason: 'Event "issues" is not one Plinth acts on; only push and ping are' },
      });
      const elsewhere = signedDelivery('push', pushPayload('acme/unknown', 'main', 'b'.repeat(40)));
      const unmatched = await account.request({
        method: 'POST',
        url: '/api/v1/github/webhook',
        body: elsewhere.body,
        headers: elsewhere.headers,
      });
      expect(unmatched.body).toMatchObject({ status: 'ignored', reason: 'No deployment is connected to acme/unknown at branch main' });
      const tag = signedDelivery('push', { ...pushPayload(REPOSITORY, 'main', 'c'.repeat(40)), ref: 'refs/tags/v1' });
      const tagged = await account.request({ method: 'POST', url: '/api/v1/github/webhook', body: tag.body, headers: tag.headers });
      expect(tagged.body).toMatchObject({
        status: 'ignored',
        reason: 'refs/tags/v1 is not a branch; only pushes to branches are imported',
      });
      expect(await jobs()).toBe(before);
    });

    it('a form-encoded push to a repository connected by URL imports it; a failed import is recorded on the connection', async () => {
      const account = await server().newAccount();
      const repo = await fixture.addRepository(`by-url-${server().kind}`, { 'model/orders.yml': countCube('orders') });
      const url = `file://${repo.dir}`;
      const id = await newDeployment(account);
      expect((await connect(account, id, { repository: url, branch: 'main' })).status).toBe(201);
      const sha = await repo.commit({ 'model/items.yml': countCube('items') }, 'items');
      const payload = { ref: 'refs/heads/main', after: sha, repository: { full_name: 'someone/else', clone_url: url } };
      const form = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
      const signed = signedDelivery('push', payload);
      const signature = `sha256=${createHmac('sha256', WEBHOOK_SECRET).update(form).digest('hex')}`;
      const received = await account.request({
        method: 'POST',
        url: '/api/v1/github/webhook',
        body: form,
        headers: { ...signed.headers, 'content-type': 'application/x-www-form-urlencoded', 'x-hub-signature-256': signature },
      });
      expect(received.body).toMatchObject({ status: 'queued', imports: [{ deploymentId: id }] });
      await server().jobs.runUntilIdle();
      expect(Object.keys(await filesOf(server(), account, id)).sort()).toEqual(['model/items.yml', 'model/orders.yml']);

      // The branch is gone: the import fails on the user's side, is recorded, and the model stays.
      await repo.branch('other');
      await execFileAsync('git', ['branch', '-D', 'main'], { cwd: repo.dir });
      await account.request({ method: 'POST', url: `/api/v1/deployments/${id}/github/sync`, as: account.admin });
      await server().jobs.runUntilIdle();
      const shown = (await account.request({ method: 'GET', url: `/api/v1/deployments/${id}/github`, as: account.admin })).body;
      expect(shown).toMatchObject({ lastCommitSha: sha, lastError: expect.stringMatching(/Branch or tag "main" not found/) });
      expect(Object.keys(await filesOf(server(), account, id))).toHaveLength(2);
    });

    it('sync queues one github.import per deployment at a time and imports the head', async () => {
      const account = await server().newAccount();
      const name = `synced-${server().kind}`;
      const repo = await fixture.addRepository(name, { 'model/orders.yml': countCube('orders') });
      const id = await newDeployment(account);
      await connect(account, id, { repository: `acme/${name}`, installationId: INSTALLATION, branch: 'main' });
      const sha = await repo.commit({ 'model/orders.yml': countCube('orders').replace('sql_table: orders', 'sql_table: orders_v2') }, 'v2');
      const url = `/api/v1/deployments/${id}/github/sync`;
      const first = await account.request({ method: 'POST', url, as: account.admin });
      expect(first).toMatchObject({ status: 202, body: { deploymentId: id, queued: true } });
      const second = await account.request({ method: 'POST', url, as: account.admin });
      expect(second.body).toEqual({ deploymentId: id, jobId: first.body.jobId, queued: false });
      await server().jobs.runUntilIdle();
      expect((await filesOf(server(), account, id))['model/orders.yml']).toContain('orders_v2');
      expect(
        (await account.request({ method: 'GET', url: `/api/v1/deployments/${id}/github`, as: account.admin })).body.lastCommitSha,
      ).toBe(sha);
    });

    it.each([
      ['an unreachable repository', { repository: 'http://127.0.0.1:9/nothing.git', branch: 'main' }, /cannot be reached|failed/],
      [
        'the clone URL without an installation token',
        { repository: `${fixture.standIn.url}/acme/shop.git`, branch: 'main' },
        /Authentication .* failed/,
      ],
      ['a missing branch', { repository: REPOSITORY, installationId: INSTALLATION, branch: 'nope' }, /Branch or tag "nope" not found/],
      [
        'a repository the installation lacks',
        { repository: 'acme/absent', installationId: INSTALLATION, branch: 'main' },
        /Repository acme\/absent not found on GitHub/,
      ],
      ['an unknown installation', { repository: REPOSITORY, installationId: 999, branch: 'main' }, /Installation 999 not found on GitHub/],
      [
        'a folder that does not exist',
        { repository: REPOSITORY, installationId: INSTALLATION, branch: 'main', directory: 'nowhere' },
        /Folder "nowhere" does not exist/,
      ],
      ['owner/repo without an installation', { repository: REPOSITORY, branch: 'main' }, /neither a git URL .* give installationId/],
      ['a bad owner/repo', { repository: 'not a repo', installationId: INSTALLATION, branch: 'main' }, /repository is owner\/repo/],
      ['an unknown field', { repository: REPOSITORY, installationId: INSTALLATION, branch: 'main', ref: 'x' }, /ref/],
    ])('connect with %s is a clear 400 and changes nothing', async (_, body, message) => {
      const account = await server().newAccount();
      const id = await newDeployment(account);
      const commits = await commitCount(id);
      const refused = await connect(account, id, body);
      expect(refused.status, refused.text).toBe(400);
      expect(refused.body.error).toMatch(message);
      expect(await commitCount(id)).toBe(commits);
      expect((await account.request({ method: 'GET', url: `/api/v1/deployments/${id}/github`, as: account.admin })).status).toBe(404);
      const settings = await account.request({ method: 'GET', url: `/api/v1/deployments/${id}/settings`, as: account.admin });
      expect(settings.body.creationMethod).toBeNull();
    });

    it('a revoked installation token is replaced; a suspended installation is a clear 400 and nothing changes', async () => {
      const account = await server().newAccount();
      const id = await newDeployment(account);
      // Warm the server's token cache, then revoke every token at the stand-in: the next call gets a fresh one.
      await account.request({ method: 'GET', url: `/api/v1/github/installations/${INSTALLATION}/repositories`, as: account.admin });
      fixture.standIn.revokeTokens();
      const body = { repository: REPOSITORY, installationId: INSTALLATION, branch: 'main' };
      expect((await connect(account, id, body)).status).toBe(201);

      const other = await newDeployment(account);
      const commits = await commitCount(other);
      fixture.standIn.revokeTokens();
      fixture.standIn.suspend(INSTALLATION, true);
      try {
        const refused = await connect(account, other, body);
        expect(refused.status, refused.text).toBe(400);
        expect(refused.body.error).toMatch(/GitHub refused .*\(GitHub: 403 This installation has been suspended\)/);
        const listed = await account.request({ method: 'GET', url: '/api/v1/github/installations', as: account.admin });
        expect(listed.body.items.find((i: any) => i.id === INSTALLATION).suspended).toBe(true);
      } finally {
        fixture.standIn.suspend(INSTALLATION, false);
      }
      expect((await account.request({ method: 'GET', url: `/api/v1/deployments/${other}/github`, as: account.admin })).status).toBe(404);
      expect(await commitCount(other)).toBe(commits);
    });

    it("GitHub's rate limit is a 502 naming it, never a 500", async () => {
      const account = await server().newAccount();
      fixture.standIn.rateLimited = true;
      try {
        const limited = await account.request({ method: 'GET', url: '/api/v1/github/installations', as: account.admin });
        expect(limited.status).toBe(502);
        expect(limited.body.error).toMatch(/^GitHub's rate limit is exhausted; try again in \d+ s \(GitHub: 403 API rate limit exceeded/);
        const status = await account.request({ method: 'GET', url: '/api/v1/github', as: account.admin });
        expect(status.body).toMatchObject({ configured: true, app: null, error: expect.stringMatching(/rate limit/) });
      } finally {
        fixture.standIn.rateLimited = false;
      }
    });

    it('disconnect stops imports and keeps the files; a second disconnect and unknown deployments are 404', async () => {
      const account = await server().newAccount();
      const id = await newDeployment(account);
      await connect(account, id, { repository: REPOSITORY, installationId: INSTALLATION, branch: 'main' });
      const url = `/api/v1/deployments/${id}/github`;
      expect((await account.request({ method: 'DELETE', url, as: account.admin })).status).toBe(204);
      expect(await account.request({ method: 'DELETE', url, as: account.admin })).toMatchObject({
        status: 404,
        body: { error: `Deployment ${id} has no GitHub connection` },
      });
      expect((await account.request({ method: 'POST', url: `${url}/sync`, as: account.admin })).status).toBe(404);
      expect(await filesOf(server(), account, id)).toEqual({ 'model/cubes/orders.yml': countCube('orders') });
      expect(await account.request({ method: 'GET', url: '/api/v1/deployments/424242/github', as: account.admin })).toMatchObject({
        status: 404,
        body: { error: 'Deployment 424242 not found' },
      });
    });

    describe('authorisation', () => {
      authorizationSuite(server, cases);
    });
  },
  fixture.env,
);
