import { expect, it } from 'vitest';
import { ApiError } from '../http/errors.js';
import { compileRequirement, deploymentParam, requires } from '../http/requirement.js';
import type { AccountRow } from '../store/schema.js';
import { describeOnStores, TEST_BASE_DOMAIN } from '../test-support/server.js';

/** What an operation of the platform API and one of the data API declare, compiled as the routes compile them. */
const listKeys = requires('ApiKeysManage', { resource: 'withinScope' });
const platform = { kinds: listKeys.kinds, check: compileRequirement(listKeys) };
const dataQuery = (deploymentId: number) => {
  const requirement = requires('DataApiQuery', { kinds: ['dataToken'], resource: deploymentParam() });
  return { kinds: requirement.kinds, check: compileRequirement(requirement), input: { params: { deploymentId } } };
};

describeOnStores('the request pipeline, called without Fastify', (server) => {
  const pipeline = () => server().app.pipeline;
  const accountRow = async (id: number) => (await server().services.accounts.findById(id)) as AccountRow;

  it('builds a context from a Host and an Authorization header: the tenant, the principal, a request id', async () => {
    const account = await server().newAccount();
    const context = await pipeline().contextOf({ host: account.host, authorization: `Api-Key ${account.admin.apiKey}` }, platform);
    expect(context.tenant.id).toBe(account.id);
    expect(context.principal).toMatchObject({ kind: 'apiKey', accountId: account.id, userId: account.admin.id, role: 'admin' });
    expect(context.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(context.policy).toEqual({});
    const publicContext = await pipeline().contextOf({ host: account.host, requestId: 'given' });
    expect(publicContext).toMatchObject({ requestId: 'given', tenant: { id: account.id }, principal: null });
  });

  it.each<[string, (a: { host: string; key: string; other: string }) => { host: string; authorization?: string }, number, RegExp]>([
    [
      'a host naming no account',
      ({ key }) => ({ host: `nobody-here.${TEST_BASE_DOMAIN}`, authorization: key }),
      404,
      /No account is served/,
    ],
    ['a host outside the base domain', ({ key }) => ({ host: 'evil.example.org', authorization: key }), 421, /Unknown host/],
    ['no credential', ({ host }) => ({ host }), 401, /Missing Authorization header/],
    ["another account's key", ({ host, other }) => ({ host, authorization: other }), 401, /Unknown API key/],
    [
      'a credential of a kind the operation does not take',
      ({ host }) => ({ host, authorization: 'Bearer scim_abcdefghijklmnopqrstuvwxyz' }),
      401,
      /not accepted here/,
    ],
  ])('refuses %s with the status a route would send', async (_name, arrival, status, message) => {
    const account = await server().newAccount();
    const other = await server().newAccount();
    const given = arrival({ host: account.host, key: `Api-Key ${account.admin.apiKey}`, other: `Api-Key ${other.admin.apiKey}` });
    const refusal = await pipeline()
      .contextOf(given, platform)
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({ status, message: expect.stringMatching(message) });
  });

  it("refuses a disabled account's host, and a member where the operation's permission is the admin's", async () => {
    const account = await server().newAccount();
    const member = pipeline().contextOf({ host: account.host, authorization: `Api-Key ${account.member.apiKey}` }, platform);
    await expect(member).rejects.toMatchObject({ status: 403 });
    await server().store.db.updateTable('account').set({ disabled_at: new Date() }).where('id', '=', account.id).execute();
    server().services.accounts.forgetAll();
    const disabled = pipeline().contextOf({ host: account.host, authorization: `Api-Key ${account.admin.apiKey}` }, platform);
    await expect(disabled).rejects.toMatchObject({ status: 403, message: expect.stringMatching(/disabled by an operator/) });
  });

  it('verifies a credential given as its text alone, for an account named without a Host (a SQL connection)', async () => {
    const account = await server().newAccount();
    const row = await accountRow(account.id);
    const byKey = await pipeline().contextOfConnection(row, account.admin.apiKey, ['apiKey']);
    expect(byKey).toMatchObject({ tenant: { id: account.id }, principal: { kind: 'apiKey', userId: account.admin.id } });

    const deployment = await account.request({ method: 'POST', url: '/api/v1/deployments', as: account.admin, body: { name: 'd' } });
    const minted = await account.request({
      method: 'POST',
      url: `/api/v1/deployments/${deployment.body.id}/token`,
      as: account.admin,
      body: {},
    });
    const token = minted.body.cubeApiToken as string;
    const byToken = await pipeline().contextOfConnection(row, token, ['dataToken']);
    expect(byToken.principal).toMatchObject({ kind: 'dataToken', claims: { deploymentId: deployment.body.id } });
    // The same text through a Host and a header is the same principal, admitted by the data API's requirement.
    const overHttp = await pipeline().contextOf({ host: account.host, authorization: token }, dataQuery(deployment.body.id));
    expect(overHttp.principal).toEqual(byToken.principal);
    await expect(
      pipeline().contextOf({ host: account.host, authorization: token }, dataQuery(deployment.body.id + 1)),
    ).rejects.toMatchObject({
      status: 403,
    });

    await expect(pipeline().contextOfConnection(row, 'not a credential', ['apiKey'])).rejects.toMatchObject({ status: 401 });
    await expect(pipeline().contextOfConnection(row, token, ['apiKey'])).rejects.toMatchObject({ status: 401 });
    const other = await accountRow((await server().newAccount()).id);
    await expect(pipeline().contextOfConnection(other, account.admin.apiKey, ['apiKey'])).rejects.toMatchObject({ status: 401 });
  });
});
