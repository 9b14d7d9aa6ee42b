import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { describeOnStores, type TestServer } from '../../test-support/server.js';
import { embedAccount, mintClaims, type EmbedAccount } from './test-fixtures.js';
import { dataSecurityContext } from './tokens.js';

/** Issue 10: generate-session as Cube Cloud clients send it, and its 403 rules (security item 4). */
describeOnStores(
  'generate-session, Cube Cloud body',
  (server) => {
    const apiKey = async (account: EmbedAccount, role: 'admin' | 'member', deploymentIds: number[] | null) =>
      `Api-Key ${(await server().services.credentials.createApiKey(account.id, account.admin.id, { name: 'k', role, deploymentIds })).key}`;
    const token = async (account: EmbedAccount, body: Record<string, unknown>) => {
      const generated = await account.generate(body);
      expect(generated.status, generated.text).toBe(200);
      const exchanged = await account.request({
        method: 'POST',
        url: '/api/v1/embed/session/token',
        body: { sessionId: generated.body.sessionId },
      });
      expect(exchanged.status, exchanged.text).toBe(200);
      return exchanged.body.token as string;
    };
    const payload = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString());

    describe('security 4: who may mint', () => {
      it('403 while embedding is not enabled for the account; the tenant settings API turns it off and on', async () => {
        const account = await embedAccount(server());
        const off = await account.request({
          method: 'PATCH',
          url: '/api/v1/tenant-settings',
          as: account.admin,
          body: { embeddingEnabled: false },
        });
        expect(off.status, off.text).toBe(200);
        expect(off.body.embeddingEnabled).toBe(false);
        for (const body of [{ externalId: 'ann' }, { internalId: account.member.email }, { externalId: 'ann', deploymentId: 999_999 }]) {
          const refused = await account.generate(body);
          expect(refused.status, refused.text).toBe(403);
          expect(refused.body.error).toMatch(/Embedding is not enabled for this account.*embeddingEnabled/);
        }
        expect(await account.footprint()).toMatchObject({ external_user: 0, embed_session: 0 });
        await account.request({ method: 'PATCH', url: '/api/v1/tenant-settings', as: account.admin, body: { embeddingEnabled: true } });
        expect((await account.generate({ externalId: 'ann' })).status).toBe(200);
      });

      it('embedding is on by default and the setting belongs to one account', async () => {
        const account = await embedAccount(server());
        const other = await embedAccount(server());
        expect((await server().services.tenantSettings.get(account.id)).embeddingEnabled).toBe(true);
        await server().services.tenantSettings.update(other.id, { embeddingEnabled: false });
        expect((await account.generate({ externalId: 'ann' })).status).toBe(200);
        expect((await other.generate({ externalId: 'ann' })).status).toBe(403);
      });

      it("a setting changed behind the server's back (another replica) is seen", async () => {
        const account = await embedAccount(server());
        expect((await account.generate({ externalId: 'ann' })).status).toBe(200);
        await sql`update tenant_settings set embedding_enabled = false where account_id = ${account.id}`.execute(server().store.db);
        await expect.poll(async () => (await account.generate({ externalId: 'ann' })).status, { timeout: 10_000 }).toBe(403);
      });

      it.each([
        ['an admin, account-wide admin key', 200, 'admin', null],
        ['an admin, admin key scoped to the deployment', 403, 'admin', 'own'],
        ['a member, admin key scoped to the deployment', 200, 'member', 'own'],
        ['a member, account-wide admin key', 200, 'member', null],
      ] as const)('internalId of %s: %i', async (_label, status, whose, scope) => {
        const account = await embedAccount(server());
        const key = await apiKey(account, 'admin', scope === 'own' ? [account.deploymentId] : null);
        const user = whose === 'admin' ? account.admin : account.member;
        const response = await account.generate({ internalId: user.email }, key);
        expect(response.status, response.text).toBe(status);
        if (status === 403) {
          expect(response.body.error).toBe(
            `internalId "${user.email}" names an admin: only an admin API key for every deployment may mint a session for an admin`,
          );
          expect(await account.footprint()).toMatchObject({ embed_session: 0 });
        }
      });

      it('a member key gets 403 for every body, an internalId of an admin included', async () => {
        const account = await embedAccount(server());
        for (const body of [{ externalId: 'ann' }, { internalId: account.admin.email }, { internalId: account.member.email }]) {
          const response = await account.generate(body, await apiKey(account, 'member', null));
          expect(response.status).toBe(403);
        }
      });
    });

    describe('every field of the reference body', () => {
      it('accepts a body with every field of the reference GenerateSession set', async () => {
        const account = await embedAccount(server());
        await account.creatorMode();
        const claims = await mintClaims(account, {
          externalId: 'ann',
          email: 'ann@example.com',
          userProfile: { displayName: 'Ann', picture: 'https://example.com/a.png' },
          embedTenantName: 'tenant-one',
          creatorMode: true,
          userAttributeDefinitions: [
            { name: 'region', type: 'string', displayName: 'Region', defaultValue: 'emea', description: 'Sales region' },
          ],
          groupDefinitions: [{ name: 'sales', description: 'Sales team' }],
          userAttributes: [{ name: 'region', value: 'apac' }],
          groups: ['sales'],
          roles: ['viewer'],
          securityContext: { team: 7 },
          isEphemeral: true,
          ephemeralTtlSeconds: 3600,
          publicDashboardId: 'dash-1',
          embedTheme: { primaryColor: '#123456', font: 'Inter', chat: { inputColor: '#fff' }, analyticsChat: { backgroundColor: '#000' } },
        });
        expect(claims).toMatchObject({
          embedTenant: 'tenant-one',
          groups: ['sales'],
          userAttributes: { region: 'apac' },
          roles: ['viewer'],
          securityContext: { team: 7 },
          publicDashboardId: 'dash-1',
          embedTheme: { primaryColor: '#123456', font: 'Inter', chat: { inputColor: '#fff' }, analyticsChat: { backgroundColor: '#000' } },
          user: { type: 'external', externalId: 'ann', email: 'ann@example.com', expiresAt: expect.any(String) },
        });
      });

      it('null for every optional field means omitted: the saved user is kept as it was', async () => {
        const account = await embedAccount(server());
        await account.group('analysts');
        await account.attribute('region', 'string');
        await account.generate({
          externalId: 'ann',
          email: 'ann@example.com',
          userProfile: { displayName: 'Ann' },
          groups: ['analysts'],
          userAttributes: [{ name: 'region', value: 'emea' }],
          settings: { showDashboardChat: false },
        });
        const nulls = Object.fromEntries(
          [
            'internalId',
            'email',
            'userProfile',
            'embedTenantName',
            'creatorMode',
            'userAttributes',
            'groups',
            'roles',
            'userAttributeDefinitions',
            'groupDefinitions',
            'securityContext',
            'isEphemeral',
            'ephemeralTtlSeconds',
            'publicDashboardId',
            'embedTheme',
            'settings',
          ].map((field) => [field, null]),
        );
        const claims = await mintClaims(account, { externalId: 'ann', ...nulls });
        expect(claims).toMatchObject({
          embedTenant: account.name,
          creatorMode: false,
          groups: ['analysts'],
          userAttributes: { region: 'emea' },
          roles: [],
          publicDashboardId: null,
          embedTheme: null,
          securityContext: null,
          settings: { showDashboardChat: true },
          user: { email: 'ann@example.com', userProfile: { displayName: 'Ann' } },
        });
        expect(claims.user.expiresAt).toBeUndefined();
        const nested = await mintClaims(account, {
          externalId: 'ann',
          userProfile: { displayName: null, picture: null },
          settings: { showDashboardChat: null },
          embedTheme: { primaryColor: null, chat: { inputColor: null } },
        });
        expect(nested).toMatchObject({
          user: { userProfile: { displayName: 'Ann', picture: null } },
          settings: { showDashboardChat: true },
          embedTheme: null,
        });
      });

      it('null in definitions means omitted: a stored description and displayName stay', async () => {
        const account = await embedAccount(server());
        await account.creatorMode();
        const base = { externalId: 'ann', creatorMode: true, embedTenantName: 'tenant-one' };
        await account.generate({
          ...base,
          groupDefinitions: [{ name: 'sales', description: 'Sales team' }],
          userAttributeDefinitions: [{ name: 'region', type: 'string', displayName: 'Region' }],
        });
        const again = await account.generate({
          ...base,
          groupDefinitions: [{ name: 'sales', description: null }],
          userAttributeDefinitions: [{ name: 'region', type: 'string', displayName: null, defaultValue: null, description: null }],
        });
        expect(again.status, again.text).toBe(200);
        const groups = await account.request({ method: 'GET', url: '/api/v1/embed-tenants/tenant-one/groups', as: account.admin });
        expect(groups.body.items).toMatchObject([{ name: 'sales', description: 'Sales team' }]);
        const attributes = await account.request({
          method: 'GET',
          url: '/api/v1/embed-tenants/tenant-one/user-attributes',
          as: account.admin,
        });
        expect(attributes.body.items).toMatchObject([{ name: 'region', displayName: 'Region' }]);
      });

      it('2.9: description "" does not clear a stored description, nor gives a new group one', async () => {
        const account = await embedAccount(server());
        await account.creatorMode();
        const base = { externalId: 'ann', creatorMode: true, embedTenantName: 'tenant-one' };
        await account.generate({ ...base, groupDefinitions: [{ name: 'sales', description: 'Sales team' }] });
        const response = await account.generate({
          ...base,
          groupDefinitions: [
            { name: 'sales', description: '' },
            { name: 'ops', description: '' },
          ],
        });
        expect(response.status, response.text).toBe(200);
        const groups = await account.request({ method: 'GET', url: '/api/v1/embed-tenants/tenant-one/groups', as: account.admin });
        expect(Object.fromEntries(groups.body.items.map((g: any) => [g.name, g.description]))).toEqual({ sales: 'Sales team', ops: null });
      });

      it('a userAttributes item without value clears the value, as null does', async () => {
        const account = await embedAccount(server());
        await account.attribute('region', 'string');
        await account.attribute('tier', 'number');
        await account.generate({
          externalId: 'ann',
          userAttributes: [
            { name: 'region', value: 'emea' },
            { name: 'tier', value: 2 },
          ],
        });
        const claims = await mintClaims(account, { externalId: 'ann', userAttributes: [{ name: 'region' }] });
        expect(claims.userAttributes).toEqual({ tier: 2 });
        expect((await account.externalUser('ann')).userAttributes).toEqual([{ name: 'tier', value: 2 }]);
      });

      it('roles are carried into the token and the data API security context, sorted and without repeats', async () => {
        const account = await embedAccount(server());
        const jwt = await token(account, { externalId: 'ann', roles: ['viewer', 'analyst', 'viewer'], securityContext: { roles: 'own' } });
        expect(payload(jwt).roles).toEqual(['analyst', 'viewer']);
        const verified = await server().services.embed.verifyEmbedToken(account.ref, jwt);
        expect(dataSecurityContext(verified)).toEqual({
          securityContext: { roles: 'own' },
          roles: ['analyst', 'viewer'],
          groups: [],
          userAttributes: {},
        });
        // A known user's page view in a tenant this process has seen (the one-statement path) carries them too.
        await token(account, { externalId: 'ann' });
        expect(payload(await token(account, { externalId: 'ann', roles: ['editor'] })).roles).toEqual(['editor']);
      });

      it.each([
        [{ externalId: 'ann', roles: [''] }, /roles/],
        [{ externalId: 'ann', roles: ['  '] }, /roles must not contain an empty name/],
        [{ externalId: 'ann', roles: 'viewer' }, /roles/],
        [{ externalId: 'ann', embedTheme: { primaryColor: '#fff', shadow: 'x' } }, /shadow/],
        [{ externalId: 'ann', embedTheme: { chat: { borderColor: '#fff' } } }, /borderColor/],
        [{ externalId: 'ann', publicDashboardId: '' }, /publicDashboardId/],
        [{ externalId: 'ann', ephemeralTtlSeconds: 600 }, /ephemeralTtlSeconds requires isEphemeral: true/],
        [{ externalId: 'ann', isEphemeral: false, ephemeralTtlSeconds: 600 }, /ephemeralTtlSeconds requires isEphemeral: true/],
        [{ externalId: 'ann', isEphemeral: true, ephemeralTtlSeconds: 59 }, /ephemeralTtlSeconds/],
        [{ externalId: 'ann', isEphemeral: true, ephemeralTtlSeconds: 1.5 }, /ephemeralTtlSeconds/],
        [{ externalId: 'ann', isEphemeral: 'yes' }, /isEphemeral/],
        [{ externalId: 'ann', userAttributes: [{ value: 'x' }] }, /name/],
      ])('400 for %j', async (body, message) => {
        const account = await embedAccount(server());
        const response = await account.generate(body);
        expect(response.status, response.text).toBe(400);
        expect(response.body.error).toMatch(message);
        expect(await account.footprint()).toMatchObject({ external_user: 0, embed_session: 0 });
      });

      it('with internalId, the external-user fields roles, isEphemeral and ephemeralTtlSeconds are refused by name', async () => {
        const account = await embedAccount(server());
        const response = await account.generate({
          internalId: account.member.email,
          roles: ['x'],
          isEphemeral: true,
          ephemeralTtlSeconds: 600,
        });
        expect(response.status).toBe(400);
        expect(response.body.error).toBe(
          "roles, isEphemeral, ephemeralTtlSeconds cannot be sent with internalId: the internal user's own permissions apply",
        );
      });

      it('publicDashboardId and embedTheme are carried for an internal user too', async () => {
        const account = await embedAccount(server());
        const claims = await mintClaims(account, {
          internalId: account.member.email,
          publicDashboardId: 'd-9',
          embedTheme: { font: 'Inter' },
        });
        expect(claims).toMatchObject({ publicDashboardId: 'd-9', embedTheme: { font: 'Inter' }, roles: [] });
      });
    });

    describe('publicDashboardId', () => {
      it('the token opens only that dashboard where tokens are checked; a token without it opens any', async () => {
        const account = await embedAccount(server());
        const embed = () => server().services.embed;
        const only = await token(account, { externalId: 'ann', publicDashboardId: 'dash-1' });
        expect(payload(only).publicDashboardId).toBe('dash-1');
        await expect(embed().verifyEmbedToken(account.ref, only, { dashboardId: 'dash-1' })).resolves.toMatchObject({
          publicDashboardId: 'dash-1',
        });
        await expect(embed().verifyEmbedToken(account.ref, only, { dashboardId: 'dash-2' })).rejects.toMatchObject({
          status: 403,
          message: 'This embed token may open only dashboard "dash-1", not "dash-2"',
        });
        const any = await token(account, { externalId: 'ann' });
        await expect(embed().verifyEmbedToken(account.ref, any, { dashboardId: 'dash-2' })).resolves.toMatchObject({
          publicDashboardId: null,
        });
      });

      it('the session keeps it in its claims until the exchange (known-user path too)', async () => {
        const account = await embedAccount(server());
        await account.generate({ externalId: 'ann' });
        await account.generate({ externalId: 'ann' });
        const generated = await account.generate({ externalId: 'ann', publicDashboardId: 'dash-7', embedTheme: { primaryColor: '#abc' } });
        const row = await server()
          .store.db.selectFrom('embed_session')
          .select('claims')
          .where('account_id', '=', account.id)
          .orderBy('id', 'desc')
          .executeTakeFirstOrThrow();
        expect(row.claims).toMatchObject({ publicDashboardId: 'dash-7', embedTheme: { primaryColor: '#abc' } });
        expect(generated.status).toBe(200);
      });
    });

    describe('isEphemeral', () => {
      const expire = (server: TestServer, account: EmbedAccount, externalId: string) =>
        sql`update external_user set expires_at = now() - interval '1 second'
          where account_id = ${account.id} and external_id = ${externalId}`.execute(server.store.db);
      const rows = (account: EmbedAccount) =>
        server()
          .store.db.selectFrom('external_user')
          .select(['external_id', 'expires_at'])
          .where('account_id', '=', account.id)
          .orderBy('external_id')
          .execute();

      it('an ephemeral user does not count toward the external-user limit (2 here)', async () => {
        const account = await embedAccount(server());
        expect((await account.generate({ externalId: 'kept-1' })).status).toBe(200);
        for (const id of ['guest-1', 'guest-2', 'guest-3']) {
          const response = await account.generate({ externalId: id, isEphemeral: true, ephemeralTtlSeconds: 600 });
          expect(response.status, response.text).toBe(200);
        }
        expect((await account.generate({ externalId: 'kept-2' })).status).toBe(200);
        expect((await account.generate({ externalId: 'kept-3' })).status).toBe(422);
        expect((await rows(account)).filter((r) => r.expires_at !== null).map((r) => r.external_id)).toEqual([
          'guest-1',
          'guest-2',
          'guest-3',
        ]);
      });

      it('the token says when the user ends and expires no later; the default TTL is the token lifetime', async () => {
        const account = await embedAccount(server());
        const short = payload(await token(account, { externalId: 'guest', isEphemeral: true, ephemeralTtlSeconds: 120 }));
        expect(short.exp - short.iat).toBeLessThanOrEqual(120);
        expect(short.exp).toBe(Math.floor(Date.parse(short.user.expiresAt) / 1000));
        const long = payload(await token(account, { externalId: 'other-guest', isEphemeral: true }));
        expect(long.exp - long.iat).toBeLessThanOrEqual(86_400);
        expect(long.exp - long.iat).toBeGreaterThan(120);
        const kept = payload(await token(account, { externalId: 'kept' }));
        expect(kept.user.expiresAt).toBeUndefined();
        expect(kept.exp - kept.iat).toBe(86_400);
      });

      it('past its TTL the user is gone: not listed, not found, recreated empty by the next session, removed by the retention sweep (issue 11)', async () => {
        const account = await embedAccount(server());
        await account.group('analysts');
        await account.generate({
          externalId: 'guest',
          isEphemeral: true,
          ephemeralTtlSeconds: 600,
          groups: ['analysts'],
          userProfile: { displayName: 'G' },
        });
        await account.generate({ externalId: 'stale', isEphemeral: true, ephemeralTtlSeconds: 600 });
        await expire(server(), account, 'guest');
        await expire(server(), account, 'stale');
        expect(await account.externalUser('guest')).toBeUndefined();
        const list = await account.request({ method: 'GET', url: `/api/v1/embed-tenants/${account.name}/users`, as: account.admin });
        expect(list.body.items).toEqual([]);
        const claims = await mintClaims(account, { externalId: 'guest', isEphemeral: true, ephemeralTtlSeconds: 600 });
        expect(claims).toMatchObject({ groups: [], user: { userProfile: { displayName: null } } });
        expect((await rows(account)).map((r) => r.external_id).sort()).toEqual(['guest', 'stale']);
        expect(await account.footprint()).toMatchObject({ external_user_group: 0 });
        await server().jobs.queue.enqueue({ kind: 'retention.sweep' });
        await server().jobs.runUntilIdle();
        expect((await rows(account)).map((r) => r.external_id)).toEqual(['guest']);
      });

      it('an expired user sent as kept is created afresh and takes a slot', async () => {
        const account = await embedAccount(server());
        await account.attribute('region', 'string');
        await account.generate({ externalId: 'guest', isEphemeral: true, userAttributes: [{ name: 'region', value: 'emea' }] });
        await expire(server(), account, 'guest');
        const claims = await mintClaims(account, { externalId: 'guest' });
        expect(claims.userAttributes).toEqual({});
        expect(await rows(account)).toMatchObject([{ external_id: 'guest', expires_at: null }]);
        expect((await account.generate({ externalId: 'kept-2' })).status).toBe(200);
        expect((await account.generate({ externalId: 'kept-3' })).status).toBe(422);
      });

      it('an ephemeral user sent again as ephemeral gets a new end; sent as kept, it is kept and takes a slot', async () => {
        const account = await embedAccount(server());
        await account.generate({ externalId: 'guest', isEphemeral: true, ephemeralTtlSeconds: 120 });
        const first = (await rows(account))[0]!.expires_at!;
        expect(await account.externalUser('guest')).toMatchObject({ expiresAt: new Date(first).toISOString() });
        await account.generate({ externalId: 'guest', isEphemeral: true, ephemeralTtlSeconds: 3600 });
        const second = (await rows(account))[0]!.expires_at!;
        expect(new Date(second).getTime()).toBeGreaterThan(new Date(first).getTime());
        await account.generate({ externalId: 'kept-1' });
        expect((await account.generate({ externalId: 'guest' })).status).toBe(200);
        expect((await rows(account)).map((r) => r.expires_at)).toEqual([null, null]);
        expect(await account.externalUser('guest')).toMatchObject({ expiresAt: null });
        expect((await account.generate({ externalId: 'kept-3' })).status).toBe(422);
      });

      it('an ephemeral user past the limit cannot become kept (422) and stays ephemeral', async () => {
        const account = await embedAccount(server());
        await account.generate({ externalId: 'kept-1' });
        await account.generate({ externalId: 'kept-2' });
        await account.generate({ externalId: 'guest', isEphemeral: true });
        expect((await account.generate({ externalId: 'guest' })).status).toBe(422);
        expect((await rows(account)).find((r) => r.external_id === 'guest')!.expires_at).not.toBeNull();
      });

      it('a kept user cannot be made ephemeral: 400 naming isEphemeral', async () => {
        const account = await embedAccount(server());
        await account.generate({ externalId: 'ann' });
        const response = await account.generate({ externalId: 'ann', isEphemeral: true });
        expect(response.status).toBe(400);
        expect(response.body.error).toBe(
          'externalId "ann" names an external user that is kept: isEphemeral applies only to a new or an ephemeral user',
        );
      });

      it('bulk provisioning of an ephemeral user keeps it from then on, taking a slot', async () => {
        const account = await embedAccount(server());
        await account.generate({ externalId: 'guest', isEphemeral: true });
        await account.generate({ externalId: 'kept-1' });
        const provisioned = await account.request({
          method: 'POST',
          url: `/api/v1/embed-tenants/${account.name}/users`,
          as: account.admin,
          body: { users: [{ externalId: 'guest', userProfile: { displayName: 'Now kept' } }, { externalId: 'kept-2' }] },
        });
        expect(provisioned.status, provisioned.text).toBeLessThan(300);
        const after = await rows(account);
        expect(after.find((r) => r.external_id === 'guest')!.expires_at).toBeNull();
        expect(after.map((r) => r.external_id)).toEqual(['guest', 'kept-1']);
      });
    });
  },
  { PLINTH_MAX_EXTERNAL_USERS: '2' },
);
