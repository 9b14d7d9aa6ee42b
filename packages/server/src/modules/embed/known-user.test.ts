import { afterEach, expect, it, vi } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';
import { embedAccount, mintClaims, type EmbedAccount } from './test-fixtures.js';

/**
 * A page view of a known external user is minted in one statement, without the transaction of the
 * full path; these prove it mints what the full path would and, failing, leaves nothing.
 */
describeOnStores('generate-session for a known external user', (server) => {
  afterEach(() => vi.restoreAllMocks());

  /** The catalog, and the account's default embed tenant seen committed by this process (a second session does that). */
  const catalog = async (account: EmbedAccount) => {
    for (const name of ['g1', 'g2', 'g3']) await account.group(name);
    await account.attribute('region', 'string');
    await account.attribute('level', 'number');
    await account.attribute('accounts', 'string_array');
    for (let i = 0; i < 2; i++) expect((await account.generate({ externalId: 'warm-up' })).status).toBe(200);
  };
  const withoutTimes = ({ iat: _iat, exp: _exp, sid: _sid, ...claims }: Record<string, unknown>) => claims;

  it('2.4–2.7 and 2.11: the one-statement path mints the claims the full path mints, and writes the same user', async () => {
    const account = await embedAccount(server());
    await catalog(account);
    const body = {
      externalId: 'Ann',
      email: 'ann@example.com',
      userProfile: { displayName: 'Ann' },
      groups: ['g2', 'g1', 'g2'],
      userAttributes: [
        { name: 'region', value: 'emea' },
        { name: 'level', value: 1 },
        { name: 'accounts', value: ['a', 'b'] },
      ],
      securityContext: { tenant: 'acme' },
      settings: { showDashboardChat: false },
    };
    const full = vi.spyOn(server().services.embedTenants.externalUsers, 'write');
    const first = await mintClaims(account, body);
    expect(full).toHaveBeenCalledTimes(1);
    const stored = await account.externalUser('ann');
    const again = await mintClaims(account, body);
    expect(full).toHaveBeenCalledTimes(1);
    expect(withoutTimes(again)).toEqual(withoutTimes(first));
    expect({ ...(await account.externalUser('ann')), updatedAt: null }).toEqual({ ...stored, updatedAt: null });
  });

  it('issue 10: roles, publicDashboardId and embedTheme take the one-statement path and mint what the full path mints', async () => {
    const account = await embedAccount(server());
    await catalog(account);
    const body = {
      externalId: 'eve',
      groups: ['g1'],
      roles: ['viewer'],
      publicDashboardId: 'd1',
      embedTheme: { font: 'Inter' },
      settings: null,
    };
    const full = vi.spyOn(server().services.embedTenants.externalUsers, 'write');
    const first = await mintClaims(account, body);
    const again = await mintClaims(account, body);
    expect(full).toHaveBeenCalledTimes(1);
    expect(withoutTimes(again)).toEqual(withoutTimes(first));
    expect(again).toMatchObject({ roles: ['viewer'], publicDashboardId: 'd1', embedTheme: { font: 'Inter' } });
  });

  it('issue 10: an ephemeral user, or a kept request for one, takes the locking path, which keeps its expiry right', async () => {
    const account = await embedAccount(server());
    await catalog(account);
    const full = vi.spyOn(server().services.embedTenants.externalUsers, 'write');
    await mintClaims(account, { externalId: 'guest', isEphemeral: true });
    await mintClaims(account, { externalId: 'guest', isEphemeral: true });
    expect(full).toHaveBeenCalledTimes(2);
    const kept = await mintClaims(account, { externalId: 'guest' });
    expect(full).toHaveBeenCalledTimes(3);
    expect(kept.user.expiresAt).toBeUndefined();
    await mintClaims(account, { externalId: 'guest' });
    expect(full).toHaveBeenCalledTimes(3);
  });

  it('2.5–2.7: omitted groups and profile fields are kept, null clears a value, unnamed values stay', async () => {
    const account = await embedAccount(server());
    await catalog(account);
    await mintClaims(account, {
      externalId: 'bob',
      email: 'bob@example.com',
      userProfile: { displayName: 'Bob', picture: 'https://x.example.com/b.png' },
      groups: ['g3', 'g1'],
      userAttributes: [
        { name: 'region', value: 'emea' },
        { name: 'level', value: 2 },
      ],
    });
    const full = vi.spyOn(server().services.embedTenants.externalUsers, 'write');
    const claims = await mintClaims(account, {
      externalId: 'bob',
      userProfile: { displayName: 'Robert' },
      userAttributes: [
        { name: 'level', value: null },
        { name: 'accounts', value: ['z'] },
      ],
    });
    expect(full).not.toHaveBeenCalled();
    expect(claims.user).toEqual({
      type: 'external',
      externalId: 'bob',
      email: 'bob@example.com',
      userProfile: { displayName: 'Robert', picture: 'https://x.example.com/b.png' },
    });
    expect(claims.groups).toEqual(['g1', 'g3']);
    expect(claims.userAttributes).toEqual({ region: 'emea', accounts: ['z'] });
    expect(await account.externalUser('bob')).toMatchObject({
      groups: ['g1', 'g3'],
      userAttributes: [
        { name: 'accounts', value: ['z'] },
        { name: 'region', value: 'emea' },
      ],
    });
    const cleared = await mintClaims(account, { externalId: 'bob', groups: [] });
    expect(cleared.groups).toEqual([]);
    expect((await account.externalUser('bob')).groups).toEqual([]);
  });

  it('2.4: a one-statement mint that the store refuses changes nothing, and the request gets what the full path says', async () => {
    const account = await embedAccount(server());
    await catalog(account);
    await mintClaims(account, { externalId: 'cat', userProfile: { displayName: 'Before' }, groups: ['g1'] });
    const before = await account.footprint();
    // As if another server deleted the deployment a moment before its NOTIFY arrived here.
    vi.spyOn(server().services.embedTenants.lookups, 'deploymentExists').mockResolvedValueOnce(true);
    await server().store.db.deleteFrom('deployment').where('id', '=', account.deploymentId).execute();
    const response = await account.generate({ externalId: 'cat', userProfile: { displayName: 'After' }, groups: ['g2'] });
    expect(response.status).toBe(404);
    // The deployment's sessions went with it (on delete cascade); the user is as it was.
    expect({ ...(await account.footprint()), embed_session: 0 }).toEqual({ ...before, embed_session: 0 });
  });

  it('simultaneous page views of one known user: every session is whole, and the user ends as one request left it', async () => {
    const account = await embedAccount(server());
    await catalog(account);
    await mintClaims(account, { externalId: 'dan', groups: ['g1'] });
    const groups = [['g1'], ['g2', 'g3'], ['g1', 'g3'], ['g2']];
    const bodies = Array.from({ length: 16 }, (_, i) => ({
      externalId: 'dan',
      groups: groups[i % 4]!,
      userAttributes: [
        { name: 'level', value: i },
        { name: 'region', value: `r${i}` },
      ],
    }));
    const claims = await Promise.all(bodies.map((body) => mintClaims(account, body)));
    claims.forEach((c, i) => {
      expect(c.groups).toEqual(bodies[i]!.groups);
      expect(c.userAttributes).toEqual({ level: i, region: `r${i}` });
    });
    const user = await account.externalUser('dan');
    const winner = user.userAttributes.find((a: { name: string }) => a.name === 'level').value;
    expect(user.groups).toEqual(bodies[winner]!.groups);
    expect(user.userAttributes).toEqual([
      { name: 'level', value: winner },
      { name: 'region', value: `r${winner}` },
    ]);
  });
});
