import { sql } from 'kysely';
import { expect, it, vi } from 'vitest';
import { createJobRunner } from '../../jobs/index.js';
import { scopedKey } from '../../test-support/authorization-scope.js';
import type { TestAccount } from '../../test-support/server.js';
import { PROVISION_MISSING_JOB, provisionMissingJob } from './provision-job.js';
import { connect, describeWithPsql, psql, type SqlLogin } from './test-fixtures.js';

interface Listed {
  data: Array<{ id: string; type: string; api_credentials: Array<{ type: string; user?: string; password?: string }> }>;
}
const sqlOf = (body: Listed) => new Map(body.data.map((e) => [e.id, e.api_credentials.find((c) => c.type === 'sql')]));

describeWithPsql('SQL API credentials', (server, set) => {
  const db = () => server().store.db;
  const environments = (account: TestAccount, id: number, as: string) =>
    account.request({ method: 'GET', url: `/api/v1/deployments/${id}/environments`, as });
  /** Rows of the tables a listing could write to, as one comparable value. */
  const counts = async () => {
    const { rows } = await sql<{ credentials: string; branches: string; jobs: string }>`
        select (select count(*) from sql_api_credential) as credentials, (select count(*) from model_branch) as branches,
               (select count(*) from job) as jobs`.execute(db());
    return rows[0];
  };
  const credentialRows = (deploymentId: number) =>
    db()
      .selectFrom('sql_api_credential')
      .select(['environment_id', 'user_name'])
      .where('deployment_id', '=', deploymentId)
      .orderBy('environment_id')
      .execute();
  const branchIds = async (deploymentId: number) =>
    (await db().selectFrom('model_branch').select('id').where('deployment_id', '=', deploymentId).execute())
      .map((r) => String(r.id))
      .sort();

  it('listing environments writes nothing, with a read-only key too, and shows each one its SQL credential', async () => {
    const { account, deploymentId } = set();
    const readOnly = await scopedKey(server(), account, 'member', [deploymentId]);
    // An environment that comes into being after the last listing: listing it must not be what makes its SQL user.
    const build = `/build/api/v1/deployments/${deploymentId}/branches`;
    expect((await account.request({ method: 'POST', url: build, as: account.admin, body: { name: 'listed' } })).status).toBe(201);
    expect((await account.request({ method: 'POST', url: `${build}/listed/enable`, as: account.admin, body: {} })).status).toBe(200);
    const before = await counts();
    const [first, second] = await Promise.all([
      environments(account, deploymentId, readOnly),
      environments(account, deploymentId, readOnly),
    ]);
    expect(first.status, first.text).toBe(200);
    expect(await counts()).toEqual(before);
    expect(sqlOf(second.body as Listed)).toEqual(sqlOf(first.body as Listed));
    expect((first.body as Listed).data.map((e) => e.type)).toContain('staging');
    for (const [id, credential] of sqlOf(first.body as Listed)) {
      expect(credential).toMatchObject({ user: `env_${id}`, password: expect.stringMatching(/^[A-Za-z0-9]{32}$/) });
    }
  });

  it('each environment gets its SQL user when its branch is made, before anything lists it, and loses it with the branch', async () => {
    const { account } = set();
    const created = await account.request({ method: 'POST', url: '/api/v1/deployments', as: account.admin, body: { name: 'fresh' } });
    const id = created.body.id as number;
    const build = `/build/api/v1/deployments/${id}`;
    const post = (url: string) =>
      account.request({ method: 'POST', url, as: account.admin, body: url.endsWith('/branches') ? { name: 'staging' } : {} });
    expect((await post(`${build}/branches`)).status).toBe(201);
    expect((await post(`${build}/branches/staging/enable`)).status).toBe(200);
    const dev = await account.request({ method: 'POST', url: `${build}/dev-mode`, as: account.admin, body: { branch: 'main' } });
    expect(dev.status, dev.text).toBe(200);

    // main (made with the first branch), staging and the dev branch: one SQL user each, none listed yet.
    const ids = await branchIds(id);
    expect(ids).toHaveLength(3);
    expect(await credentialRows(id)).toEqual(ids.map((e) => ({ environment_id: e, user_name: `env_${e}` })));

    const listed = await environments(account, id, `Api-Key ${account.admin.apiKey}`);
    expect([...sqlOf(listed.body as Listed).values()].map((c) => c?.user).sort()).toEqual(ids.map((e) => `env_${e}`).sort());

    const removed = await account.request({ method: 'DELETE', url: `${build}/branches/staging`, as: account.admin });
    expect(removed.status, removed.text).toBeLessThan(300);
    expect((await credentialRows(id)).map((r) => r.environment_id)).toEqual(await branchIds(id));
  });

  /** A deployment whose environments lost their SQL users, as if made before SQL users came with them. */
  const olderDeployment = async (name: string) => {
    const { account } = set();
    const created = await account.request({ method: 'POST', url: '/api/v1/deployments', as: account.admin, body: { name } });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as number;
    // The first listing makes the deployment's main branch, and with it its SQL user.
    expect((await environments(account, id, `Api-Key ${account.admin.apiKey}`)).status).toBe(200);
    await db().deleteFrom('sql_api_credential').where('deployment_id', '=', id).execute();
    const listed = await environments(account, id, `Api-Key ${account.admin.apiKey}`);
    expect([...sqlOf(listed.body as Listed).values()]).toEqual([undefined]);
    return id;
  };

  it('environments made before credentials came with them get theirs from one job, however many servers queue it at once', async () => {
    // Two deployments, so one page of branches spans them.
    const ids = [await olderDeployment('old'), await olderDeployment('older')];
    const { sqlApi } = server().services;
    const queued = await Promise.all([sqlApi.provisionMissingLater(), sqlApi.provisionMissingLater()]);
    expect(queued.filter((q) => q.created)).toHaveLength(1);
    expect(queued[1]!.id).toBe(queued[0]!.id);
    await server().jobs.runUntilIdle();
    for (const id of ids) expect((await credentialRows(id)).map((r) => r.environment_id)).toEqual(await branchIds(id));
    const job = await provisionMissingJob.find(db(), queued[0]!.id);
    expect(job).toMatchObject({ state: 'succeeded', result: { environments: 2 } });

    // Two runs at once (a retry whose lease lapsed while the first still works) make each credential once.
    await db().deleteFrom('sql_api_credential').where('deployment_id', '=', ids[0]!).execute();
    const made = await Promise.all([sqlApi.provisionMissing(), sqlApi.provisionMissing()]);
    expect(made[0]! + made[1]!).toBeGreaterThanOrEqual(1);
    expect((await credentialRows(ids[0]!)).map((r) => r.environment_id)).toEqual(await branchIds(ids[0]!));
    expect(await sqlApi.provisionMissing()).toBe(0);
  });

  it('a provisioning run that fails is logged and retried while the server goes on serving', async () => {
    const id = await olderDeployment('failing');
    const { sqlApi } = server().services;
    const failing = vi.spyOn(sqlApi, 'provisionMissing').mockRejectedValueOnce(new Error('the store went away'));
    const logged: Array<{ message: string; kind?: string }> = [];
    const log = {
      warn: (details: { kind?: string }, message: string) => logged.push({ ...details, message }),
      error: (details: { kind?: string }, message: string) => logged.push({ ...details, message }),
    };
    const { store, services, config } = server();
    const runner = createJobRunner({ store, services, config }, log);
    try {
      const { id: jobId } = await sqlApi.provisionMissingLater();
      await runner.runUntilIdle();
      expect(logged).toEqual([expect.objectContaining({ kind: PROVISION_MISSING_JOB, message: 'job runner: job failed, retrying' })]);
      expect(await provisionMissingJob.find(db(), jobId)).toMatchObject({
        state: 'queued',
        last_error: expect.stringContaining('the store went away'),
      });
      // Requests and SQL sessions are answered meanwhile.
      expect((await environments(set().account, id, `Api-Key ${set().account.admin.apiKey}`)).status).toBe(200);
      const client = await connect(set().login);
      try {
        expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      } finally {
        await client.end();
      }
      // The retry, once due, makes what the failed run did not.
      runner.queue.now = () => Date.now() + 3_600_000;
      await runner.runUntilIdle();
      expect(await provisionMissingJob.find(db(), jobId)).toMatchObject({ state: 'succeeded', result: { environments: 1 } });
      expect((await credentialRows(id)).map((r) => r.environment_id)).toEqual(await branchIds(id));
    } finally {
      failing.mockRestore();
    }
  });

  it('rotating the password of an older environment not yet provisioned makes its SQL user, with the new password', async () => {
    const { account } = set();
    const id = await olderDeployment('rotated-before-provisioning');
    const [environmentId] = await branchIds(id);
    expect(await credentialRows(id)).toEqual([]);
    const url = `/api/v1/deployments/${id}/environments/${environmentId}/sql-credentials/rotate`;
    const rotated = await account.request({ method: 'POST', url, as: account.admin });
    expect(rotated.status, rotated.text).toBe(200);
    const made = rotated.body.data as SqlLogin;
    expect(made).toMatchObject({ user: `env_${environmentId}`, password: expect.stringMatching(/^[A-Za-z0-9]{32}$/) });
    expect(await credentialRows(id)).toEqual([{ environment_id: environmentId, user_name: `env_${environmentId}` }]);
    // Where the test's server listens, as the rotation's own answer names the account's host.
    const client = await connect({ ...set().login, user: made.user, password: made.password, database: made.database });
    try {
      // Authenticated as that environment: its deployment was never built, which is what it answers.
      await expect(client.query('SELECT 1 AS one')).rejects.toThrow('No successful build of branch main yet');
    } finally {
      await client.end();
    }
    // The provisioning run that comes later keeps it.
    expect(await server().services.sqlApi.provisionMissing()).toBe(0);
    expect(sqlOf((await environments(account, id, `Api-Key ${account.admin.apiKey}`)).body as Listed).get(environmentId!)?.password).toBe(
      made.password,
    );
  });

  it('current_user, session_user, user, current_database() and current_catalog answer who connected to which database', async () => {
    const who = 'SELECT current_user AS cu, session_user AS su, user AS u, current_database() AS db, current_catalog AS cat';
    const wanted = (user: string, database: string) => ({ cu: user, su: user, u: user, db: database, cat: database });
    const client = await connect(set().login);
    try {
      expect((await client.query(who)).rows).toEqual([wanted(set().login.user, set().login.database)]);
      // The same through a prepared statement (extended protocol), and in pg_catalog and information_schema.
      expect((await client.query({ text: `${who} WHERE $1::int = 1`, values: [1] })).rows).toEqual([
        wanted(set().login.user, set().login.database),
      ]);
      const databases = await client.query('SELECT datname FROM pg_catalog.pg_database WHERE datname = current_database()');
      expect(databases.rows).toEqual([{ datname: set().login.database }]);
      const catalogs = await client.query('SELECT DISTINCT table_catalog FROM information_schema.tables');
      expect(catalogs.rows).toEqual([{ table_catalog: set().login.database }]);
    } finally {
      await client.end();
    }
    // A token's login is user token; another name for the deployment's database is answered as given.
    const alias = `sales-${set().deploymentId}`;
    const byToken = await connect({ ...set().tokenLogin(set().token), database: alias });
    try {
      expect((await byToken.query(who)).rows).toEqual([wanted('token', alias)]);
    } finally {
      await byToken.end();
    }
    const conninfo = await psql(set().login, ['-c', '\\conninfo']);
    expect(conninfo.stderr).toBe('');
    expect(conninfo.stdout).toContain(`database "${set().login.database}" as user "${set().login.user}"`);
    const listed = await psql(set().login, ['-A', '-t', '-c', '\\l']);
    expect(listed.stderr).toBe('');
    expect(listed.stdout.split('\n').map((line) => line.split('|')[0])).toContain(set().login.database);
    const psqlWho = await psql(set().login, ['-A', '-t', '-F', ',', '-c', 'SELECT current_user, current_database()']);
    expect(psqlWho.stdout.trim()).toBe(`${set().login.user},${set().login.database}`);
  });

  it('rotation answers a new password once; psql is refused the old one as PostgreSQL refuses it, an open session goes on', async () => {
    const { account, deploymentId } = set();
    const environmentId = set().environment.user.slice('env_'.length);
    const open = await connect(set().login);
    try {
      const url = `/api/v1/deployments/${deploymentId}/environments/${environmentId}/sql-credentials/rotate`;
      const rotated = await account.request({ method: 'POST', url, as: account.admin });
      expect(rotated.status, rotated.text).toBe(200);
      const fresh = rotated.body.data as SqlLogin & { type: string };
      expect(fresh).toMatchObject({ type: 'sql', user: set().login.user, database: set().login.database });
      expect(fresh.password).not.toBe(set().login.password);

      const old = await psql(set().login, ['-c', 'SELECT 1']);
      expect(old.code).not.toBe(0);
      expect(old.stderr).toContain(`password authentication failed for user "${set().login.user}"`);
      const now = await psql({ ...set().login, password: fresh.password }, ['-A', '-t', '-c', 'SELECT MEASURE(count) FROM orders']);
      expect(now.stderr).toBe('');
      expect(Number(now.stdout.trim())).toBeGreaterThan(0);

      // The session authenticated before the rotation is not cut, as PostgreSQL's are not by ALTER ROLE.
      const still = await open.query('SELECT MEASURE(count) AS n FROM orders');
      expect(Number(still.rows[0].n)).toBe(Number(now.stdout.trim()));

      const listed = await environments(account, deploymentId, `Api-Key ${account.admin.apiKey}`);
      expect(sqlOf(listed.body as Listed).get(environmentId)?.password).toBe(fresh.password);
      const unknown = await account.request({
        method: 'POST',
        url: url.replace(`/${environmentId}/`, '/2147483647/'),
        as: account.admin,
      });
      expect(unknown.status).toBe(404);
    } finally {
      await open.end();
    }
  });
});
