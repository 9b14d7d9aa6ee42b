import { expect, it } from 'vitest';
import { describeOnStores, type TestAccount } from '../../test-support/server.js';
import { DeploymentService } from './service.js';

const create = async (account: TestAccount, body: unknown = { name: 'd' }) =>
  (await account.request({ method: 'POST', url: '/api/v1/deployments', as: account.admin, body })).body.id as number;
const put = (account: TestAccount, id: number, body: unknown) =>
  account.request({ method: 'PUT', url: `/api/v1/deployments/${id}`, as: account.admin, body });
const versions = async (account: TestAccount, id: number) =>
  (await account.request({ method: 'GET', url: `/api/v1/deployments/${id}/versions`, as: account.member })).body.items as Array<{
    version: string;
    channel: string;
    latest: boolean;
    current: boolean;
  }>;
const row = (version: string, channel: string, latest: boolean, current: boolean) => ({
  version,
  channel,
  latest,
  current,
  passAs: `plinth/engine:v${version}`,
});

const BASE_URL = 'http://plinth.test';

// What the server offers in these tests (the default PLINTH_RELEASE_CHANNELS).
const HEADS = [row('1.3.0', 'latest', true, false), row('1.2.0', 'latest', false, false), row('1.2.0', 'release', true, true)];

describeOnStores('deployments: the engine versions the account has run (section 9 rule 3)', (server) => {
  /** The same store under an older configuration: what the account ran before the server's channels moved on. */
  const olderServer = () =>
    new DeploymentService(server().store.db, {
      ...server().config,
      releaseChannels: { latest: ['1.1.5', '1.1.0'], release: ['1.1.0'] },
    });

  it('a new account lists the channel heads only, its new deployment current on the default channel', async () => {
    const account = await server().newAccount();
    expect(await versions(account, await create(account))).toEqual(HEADS);
  });

  it('versions run under an older configuration follow the channel heads, newest run first, and stay selectable', async () => {
    const account = await server().newAccount();
    const older = olderServer();
    const { id: old } = await older.create(account.id, { name: 'old' }, BASE_URL);
    await older.update(account.id, old, { releaseChannel: 'latest' }, BASE_URL);

    const id = await create(account);
    expect(await versions(account, id)).toEqual([...HEADS, row('1.1.5', 'latest', false, false), row('1.1.0', 'release', false, false)]);

    // A version on the list is accepted (rule 4), on the channel in effect; the history moves it to the top.
    const switched = await put(account, id, { releaseChannelVersion: 'plinth/engine:v1.1.0' });
    expect(switched.status).toBe(200);
    expect(switched.body).toMatchObject({ releaseChannel: 'release', releaseChannelVersion: '1.1.0', image: 'plinth/engine:v1.1.0' });
    expect(await versions(account, id)).toEqual([
      row('1.3.0', 'latest', true, false),
      row('1.2.0', 'latest', false, false),
      row('1.2.0', 'release', true, false),
      row('1.1.0', 'release', false, true),
      row('1.1.5', 'latest', false, false),
    ]);
    // The other deployment of the account sees the same history, current on its own version.
    expect((await versions(account, old)).filter((v) => v.current)).toEqual([row('1.1.5', 'latest', false, true)]);
  });

  it('each version change is recorded once, and the history outlives the deployment that ran it', async () => {
    const account = await server().newAccount();
    const id = await create(account);
    expect((await put(account, id, { releaseChannel: 'latest' })).body.releaseChannelVersion).toBe('1.3.0');
    expect((await put(account, id, { releaseChannelVersion: '1.2.0' })).status).toBe(200);
    expect((await put(account, id, { name: 'renamed' })).status).toBe(200);
    const runs = await server()
      .store.db.selectFrom('engine_version_run')
      .select(['version', 'channel', 'deployment_id'])
      .where('account_id', '=', account.id)
      .orderBy('last_run_at', 'desc')
      .execute();
    expect(runs).toEqual([
      { version: '1.2.0', channel: 'latest', deployment_id: id },
      { version: '1.3.0', channel: 'latest', deployment_id: id },
    ]);
    expect((await account.request({ method: 'DELETE', url: `/api/v1/deployments/${id}`, as: account.admin })).status).toBe(204);
    const left = await server()
      .store.db.selectFrom('engine_version_run')
      .select(['version', 'deployment_id'])
      .where('account_id', '=', account.id)
      .orderBy('version')
      .execute();
    expect(left).toEqual([
      { version: '1.2.0', deployment_id: null },
      { version: '1.3.0', deployment_id: null },
    ]);
  });

  it("another account's history is not listed, and a version nobody ran is still refused", async () => {
    const ran = await server().newAccount();
    const older = olderServer();
    await older.create(ran.id, { name: 'old' }, BASE_URL);
    const account = await server().newAccount();
    const id = await create(account);
    expect(await versions(account, id)).toEqual(HEADS);
    const refused = await put(account, id, { releaseChannelVersion: '1.1.0' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('Version 1.1.0 is not offered on channel release; offered: 1.2.0');
  });
});
