import { describe, expect, it } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';
import { embedAccount, mintClaims } from './test-fixtures.js';

describeOnStores('generate-session', (server) => {
  describe('2.4 request rules', () => {
    it.each([
      [
        'both externalId and internalId',
        (email: string) => ({ externalId: 'ann', internalId: email }),
        /exactly one of externalId and internalId, not both/,
      ],
      ['neither externalId nor internalId', () => ({}), /exactly one of externalId and internalId/],
      ['an externalId empty after trimming', () => ({ externalId: '   ' }), /externalId must not be empty/],
      ['an internalId naming no user', () => ({ internalId: 'nobody@example.com' }), /does not name an existing user/],
      ['email with internalId', (email: string) => ({ internalId: email, email: 'x@example.com' }), /email cannot be sent with internalId/],
      ['an invalid email', () => ({ externalId: 'ann', email: 'not-an-email' }), /not a valid email/],
      ['a non-integer deploymentId', () => ({ externalId: 'ann', deploymentId: '1' }), /deploymentId/],
      ['an unknown field', () => ({ externalId: 'ann', role: ['x'] }), /unknown property "role"/],
    ])('2.4 rejects %s with 400', async (_label, body, message) => {
      const account = await embedAccount(server());
      const response = await account.generate(body(account.member.email));
      expect(response.status, response.text).toBe(400);
      expect(response.body.error).toMatch(message);
    });

    it('2.4 names every forbidden field sent with internalId', async () => {
      const account = await embedAccount(server());
      const response = await account.generate({
        internalId: account.member.email,
        groups: [],
        userAttributes: [],
        securityContext: {},
        userProfile: { displayName: 'x' },
        userAttributeDefinitions: [],
        groupDefinitions: [],
      });
      expect(response.status).toBe(400);
      for (const field of ['groups', 'userAttributes', 'securityContext', 'userProfile', 'userAttributeDefinitions', 'groupDefinitions']) {
        expect(response.body.error).toContain(field);
      }
    });

    it.each([
      ['abcd', 400],
      ['a'.repeat(37), 400],
      ['1abcde', 400],
      ['abcde-', 400],
      ['Abcde', 400],
      ['abc_de', 400],
      ['abcde', 200],
      ['a' + 'b'.repeat(35), 200],
      ['tenant-01', 200],
    ])('2.4 embedTenantName %j gets %i', async (name, status) => {
      const account = await embedAccount(server());
      const response = await account.generate({ externalId: 'ann', embedTenantName: name });
      expect(response.status, response.text).toBe(status);
      if (status === 400) expect(response.body.error).toContain('embedTenantName');
    });

    it('2.4 externalId is lowercased and trimmed: " Ann " and "ann" are one user', async () => {
      const account = await embedAccount(server());
      expect((await account.generate({ externalId: ' Ann ', email: 'ann@example.com' })).status).toBe(200);
      expect((await account.generate({ externalId: 'ann' })).status).toBe(200);
      const user = await account.externalUser('ann');
      expect(user).toMatchObject({ externalId: 'ann', email: 'ann@example.com' });
      const list = await account.request({ method: 'GET', url: `/api/v1/embed-tenants/${account.name}/users`, as: account.admin });
      expect(list.body.items).toHaveLength(1);
    });

    it('2.4 embedTenantName defaults to the account own embed tenant; external users are keyed per tenant', async () => {
      const account = await embedAccount(server());
      await account.generate({ externalId: 'ann', userProfile: { displayName: 'Default Ann' } });
      await account.generate({ externalId: 'ann', embedTenantName: 'other-tenant', userProfile: { displayName: 'Other Ann' } });
      expect((await account.externalUser('ann')).userProfile.displayName).toBe('Default Ann');
      expect((await account.externalUser('ann', 'other-tenant')).userProfile.displayName).toBe('Other Ann');
      const claims = await mintClaims(account, { externalId: 'ann' });
      expect(claims.embedTenant).toBe(account.name);
    });

    it('2.4 internalId mints for an existing internal user with their own groups and attribute values', async () => {
      const account = await embedAccount(server());
      const group = await account.group('analysts');
      await account.attribute('region', 'string');
      await server().services.groups.addMembers(account.id, group, [account.member.id]);
      await server().services.userAttributes.setValues(account.id, account.member.id, [{ name: 'region', value: 'emea' }]);
      const claims = await mintClaims(account, { internalId: account.member.email.toUpperCase() });
      expect(claims.user).toEqual({ type: 'internal', id: account.member.id, email: account.member.email });
      expect(claims.groups).toEqual(['analysts']);
      expect(claims.userAttributes).toEqual({ region: 'emea' });
      expect(await account.footprint()).toMatchObject({ external_user: 0 });
    });

    it('2.4 creatorMode requires the useCreatorMode tenant setting', async () => {
      const account = await embedAccount(server());
      const refused = await account.generate({ externalId: 'ann', creatorMode: true });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatch(/useCreatorMode/);
      await account.creatorMode();
      expect((await account.generate({ externalId: 'ann', creatorMode: true })).status).toBe(200);
    });
  });

  describe('section 5 rule 1 and deployments', () => {
    it('a key scoped to other deployments gets 403; a key scoped to it and an unscoped key may mint', async () => {
      const account = await embedAccount(server());
      const other = await server().services.deployments.create(account.id, { name: 'other' }, 'http://localhost');
      const key = async (deploymentIds: number[] | null) =>
        `Api-Key ${(await server().services.credentials.createApiKey(account.id, account.admin.id, { name: 'k', role: 'admin', deploymentIds })).key}`;
      const outside = await account.generate({ externalId: 'ann' }, await key([other.id]));
      expect(outside.status).toBe(403);
      expect(await account.footprint()).toMatchObject({ external_user: 0, embed_session: 0 });
      expect((await account.generate({ externalId: 'ann' }, await key([account.deploymentId]))).status).toBe(200);
      expect((await account.generate({ externalId: 'ann', deploymentId: other.id }, await key(null))).status).toBe(200);
    });

    it('a deploymentId that does not exist in the account gets 404', async () => {
      const account = await embedAccount(server());
      const stranger = await embedAccount(server());
      for (const deploymentId of [999_999, stranger.deploymentId]) {
        const response = await account.generate({ externalId: 'ann', deploymentId });
        expect(response.status).toBe(404);
      }
    });

    it('a bearer token gets 401 saying an API key is required', async () => {
      const account = await embedAccount(server());
      const response = await account.generate({ externalId: 'ann' }, `Bearer ${await account.accessToken(account.admin)}`);
      expect(response.status).toBe(401);
      expect(response.body.error).toMatch(/requires an API key/);
    });
  });

  describe('2.5 userProfile', () => {
    it('2.5 saves the profile; a later call overwrites only the supplied properties', async () => {
      const account = await embedAccount(server());
      await account.generate({ externalId: 'ann', userProfile: { displayName: 'Ann', picture: 'https://img.example.com/a.png' } });
      await account.generate({ externalId: 'ann', userProfile: { displayName: 'Ann B.' } });
      expect((await account.externalUser('ann')).userProfile).toEqual({ displayName: 'Ann B.', picture: 'https://img.example.com/a.png' });
      await account.generate({ externalId: 'ann' });
      await account.generate({ externalId: 'ann', userProfile: {} });
      await account.generate({ externalId: 'ann', userProfile: { picture: 'http://img.example.com/b.svg' } });
      expect((await account.externalUser('ann')).userProfile).toEqual({ displayName: 'Ann B.', picture: 'http://img.example.com/b.svg' });
    });

    it.each(['ftp://img.example.com/a.png', '/relative.png', 'img.example.com/a.png', 'javascript:alert(1)', 'https://', 'not a url'])(
      '2.5 rejects picture %j with 400',
      async (picture) => {
        const account = await embedAccount(server());
        const response = await account.generate({ externalId: 'ann', userProfile: { picture } });
        expect(response.status).toBe(400);
        expect(response.body.error).toContain('picture');
        expect(await account.externalUser('ann')).toBeUndefined();
      },
    );

    it('2.5 rule 4: an unreachable picture is accepted, never fetched', async () => {
      const account = await embedAccount(server());
      const picture = 'https://unreachable.invalid/avatar.png';
      const claims = await mintClaims(account, { externalId: 'ann', userProfile: { picture } });
      expect(claims.user.userProfile.picture).toBe(picture);
    });
  });

  describe('2.6 userAttributes', () => {
    it('2.6 values are checked against the type; null clears; later calls overwrite only the supplied names', async () => {
      const account = await embedAccount(server());
      await account.attribute('region', 'string');
      await account.attribute('level', 'number');
      await account.attribute('tags', 'string_array');
      await account.attribute('ids', 'number_array');
      await account.generate({
        externalId: 'ann',
        userAttributes: [
          { name: 'region', value: 'emea' },
          { name: 'level', value: 3 },
          { name: 'tags', value: ['a', 'b'] },
          { name: 'ids', value: [1, 2] },
        ],
      });
      await account.generate({
        externalId: 'ann',
        userAttributes: [
          { name: 'level', value: 4 },
          { name: 'tags', value: null },
        ],
      });
      const user = await account.externalUser('ann');
      expect(user.userAttributes).toEqual([
        { name: 'ids', value: [1, 2] },
        { name: 'level', value: 4 },
        { name: 'region', value: 'emea' },
      ]);
      const claims = await mintClaims(account, { externalId: 'ann' });
      expect(claims.userAttributes).toEqual({ ids: [1, 2], level: 4, region: 'emea' });
    });

    it.each([
      ['string', 3],
      ['number', '3'],
      ['string_array', [1]],
      ['number_array', ['1']],
      ['string_array', 'a'],
    ] as const)('2.6 rejects a %s attribute given %j', async (type, value) => {
      const account = await embedAccount(server());
      await account.attribute('attr', type);
      const response = await account.generate({ externalId: 'ann', userAttributes: [{ name: 'attr', value }] });
      expect(response.status).toBe(400);
      expect(response.body.error).toContain('attr');
      expect(await account.externalUser('ann')).toBeUndefined();
    });

    it('2.6 rule 1: a name missing from the tenant-wide catalog fails with "User attributes not found"', async () => {
      const account = await embedAccount(server());
      await account.attribute('region', 'string');
      const response = await account.generate({
        externalId: 'ann',
        userAttributes: [
          { name: 'region', value: 'x' },
          { name: 'nope', value: 'x' },
        ],
      });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('User attributes not found');
    });

    it('2.6 rule 3: duplicate names get 400', async () => {
      const account = await embedAccount(server());
      await account.attribute('region', 'string');
      const response = await account.generate({
        externalId: 'ann',
        userAttributes: [
          { name: 'region', value: 'a' },
          { name: 'region', value: 'b' },
        ],
      });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatch(/Duplicate name "region" in userAttributes/);
    });
  });

  describe('2.7 groups', () => {
    it('2.7 omitted keeps memberships, a list replaces them, [] clears them', async () => {
      const account = await embedAccount(server());
      for (const name of ['a', 'b', 'c']) await account.group(name);
      await account.generate({ externalId: 'ann', groups: ['a', 'b'] });
      expect((await account.externalUser('ann')).groups).toEqual(['a', 'b']);
      await account.generate({ externalId: 'ann' });
      expect((await account.externalUser('ann')).groups).toEqual(['a', 'b']);
      await account.generate({ externalId: 'ann', groups: ['c'] });
      expect((await account.externalUser('ann')).groups).toEqual(['c']);
      expect((await mintClaims(account, { externalId: 'ann' })).groups).toEqual(['c']);
      await account.generate({ externalId: 'ann', groups: [] });
      expect((await account.externalUser('ann')).groups).toEqual([]);
    });

    it('2.7 rule 3: unresolved names are listed in request order', async () => {
      const account = await embedAccount(server());
      await account.group('known');
      const response = await account.generate({ externalId: 'ann', groups: ['zeta', 'known', 'alpha', 'zeta'] });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('Groups with names zeta, alpha not found');
    });

    it('2.7 rule 1: read-only mode resolves against tenant-wide groups, not the embed tenant own', async () => {
      const account = await embedAccount(server());
      await account.creatorMode();
      await account.generate({ externalId: 'ann', creatorMode: true, embedTenantName: 'acme-co', groupDefinitions: [{ name: 'scoped' }] });
      const response = await account.generate({ externalId: 'ann', embedTenantName: 'acme-co', groups: ['scoped'] });
      expect(response.body.error).toBe('Groups with names scoped not found');
    });
  });

  describe('2.10 settings and the stored session', () => {
    it.each([
      [undefined, true, true],
      [undefined, false, false],
      [false, true, false],
      [true, false, true],
    ])('2.10 showDashboardChat %j with the account setting %j gives %j', async (sent, accountWide, expected) => {
      const account = await embedAccount(server());
      await server().services.tenantSettings.update(account.id, { showDashboardChat: accountWide });
      const settings = sent === undefined ? {} : { settings: { showDashboardChat: sent } };
      const claims = await mintClaims(account, { externalId: 'ann', ...settings });
      expect(claims.settings).toEqual({ showDashboardChat: expected });
      const row = await server()
        .store.db.selectFrom('embed_session')
        .select('show_dashboard_chat')
        .where('account_id', '=', account.id)
        .executeTakeFirstOrThrow();
      expect(row.show_dashboard_chat).toBe(sent ?? null);
    });

    it('2.11 the response is {sessionId}: 43 base62 characters, different every time, stored only hashed', async () => {
      const account = await embedAccount(server());
      const ids = new Set<string>();
      for (let i = 0; i < 5; i++) {
        const response = await account.generate({ externalId: 'ann' });
        expect(Object.keys(response.body)).toEqual(['sessionId']);
        expect(response.body.sessionId).toMatch(/^[A-Za-z0-9]{43}$/);
        ids.add(response.body.sessionId);
      }
      expect(ids.size).toBe(5);
      const rows = await server()
        .store.db.selectFrom('embed_session')
        .select('session_hash')
        .where('account_id', '=', account.id)
        .execute();
      for (const row of rows) expect(ids.has(row.session_hash)).toBe(false);
    });

    it('the token carries deployment, tenant, user, groups, values, security context and creator mode', async () => {
      const account = await embedAccount(server());
      await account.group('g1');
      await account.attribute('region', 'string');
      const claims = await mintClaims(account, {
        externalId: 'Ann',
        email: 'ann@example.com',
        userProfile: { displayName: 'Ann' },
        groups: ['g1'],
        userAttributes: [{ name: 'region', value: 'emea' }],
        securityContext: { tenantId: 42, nested: { a: [1] } },
      });
      expect(claims).toMatchObject({
        accountId: account.id,
        deploymentId: account.deploymentId,
        embedTenant: account.name,
        user: { type: 'external', externalId: 'ann', email: 'ann@example.com', userProfile: { displayName: 'Ann', picture: null } },
        groups: ['g1'],
        userAttributes: { region: 'emea' },
        securityContext: { tenantId: 42, nested: { a: [1] } },
        creatorMode: false,
        iss: 'plinth',
        aud: 'plinth-embed',
        sub: 'ann',
      });
      expect(claims.exp - claims.iat).toBe(24 * 60 * 60);
    });
  });

  describe('atomicity', () => {
    it.each([
      ['an unknown group after valid attributes', { groups: ['a', 'missing'] }],
      [
        'an unknown attribute after valid groups',
        {
          userAttributes: [
            { name: 'region', value: 'x' },
            { name: 'missing', value: 1 },
          ],
        },
      ],
      ['a wrongly typed value', { userAttributes: [{ name: 'region', value: 1 }] }],
      ['a bad picture', { userProfile: { displayName: 'New name', picture: 'ftp://x' } }],
    ])('a request failing on %s changes nothing', async (_label, extra) => {
      const account = await embedAccount(server());
      await account.group('a');
      await account.attribute('region', 'string');
      await account.generate({
        externalId: 'ann',
        groups: ['a'],
        userAttributes: [{ name: 'region', value: 'emea' }],
        userProfile: { displayName: 'Ann' },
      });
      const before = await account.footprint();
      const response = await account.generate({
        externalId: 'ann',
        userProfile: { displayName: 'Changed' },
        groups: [],
        userAttributes: [{ name: 'region', value: 'apac' }],
        ...extra,
      });
      expect(response.status).toBe(400);
      expect(await account.footprint()).toEqual(before);
    });

    it('a failing request for a new user in a new embed tenant leaves no user, tenant or session', async () => {
      const account = await embedAccount(server());
      const before = await account.footprint();
      const response = await account.generate({
        externalId: 'newbie',
        embedTenantName: 'brand-new',
        email: 'n@example.com',
        groups: ['missing'],
      });
      expect(response.status).toBe(400);
      expect(await account.footprint()).toEqual(before);
    });
  });
});

describeOnStores(
  'section 8 external user limit',
  (server) => {
    it('8 the account limit rejects only the creation of a new external user, naming the limit', async () => {
      const account = await embedAccount(server());
      expect((await account.generate({ externalId: 'u1' })).status).toBe(200);
      expect((await account.generate({ externalId: 'u2', embedTenantName: 'tenant-two' })).status).toBe(200);
      const refused = await account.generate({ externalId: 'u3' });
      expect(refused.status).toBe(422);
      expect(refused.body.error).toMatch(/limit of 2 external users/);
      expect(await account.externalUser('u3')).toBeUndefined();
      expect((await account.generate({ externalId: 'u1', userProfile: { displayName: 'still works' } })).status).toBe(200);
      const other = await embedAccount(server());
      expect((await other.generate({ externalId: 'u3' })).status).toBe(200);
    });

    it('8 and 4.5: bulk entries that would pass the limit fail alone; updates of existing users still apply', async () => {
      const account = await embedAccount(server());
      await account.generate({ externalId: 'old', userProfile: { displayName: 'Old' } });
      const response = await account.request({
        method: 'POST',
        url: `/api/v1/embed-tenants/${account.name}/users`,
        as: account.admin,
        body: { users: [{ externalId: 'n1' }, { externalId: 'n2' }, { externalId: 'old', userProfile: { displayName: 'Renamed' } }] },
      });
      expect(response.status).toBe(200);
      expect(response.body.succeeded).toEqual([
        { index: 0, externalId: 'n1' },
        { index: 2, externalId: 'old' },
      ]);
      expect(response.body.failed).toEqual([
        { index: 1, externalId: 'n2', error: { status: 422, message: expect.stringMatching(/limit of 2 external users/) } },
      ]);
      expect(await account.externalUser('n2')).toBeUndefined();
      expect((await account.externalUser('old')).userProfile.displayName).toBe('Renamed');
    });
  },
  { PLINTH_MAX_EXTERNAL_USERS: '2' },
);
