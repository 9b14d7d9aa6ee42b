import { expect, it } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';
import { embedAccount } from './test-fixtures.js';

const PARALLEL = 24;

describeOnStores('generate-session under concurrency', (server) => {
  it('simultaneous calls for one new externalId create one user whose groups and values are those of one request', async () => {
    const account = await embedAccount(server());
    const groups = ['g0', 'g1', 'g2', 'g3', 'g4', 'g5'];
    for (const name of groups) await account.group(name);
    await account.attribute('n', 'number');
    await account.attribute('tag', 'string');
    const bodies = Array.from({ length: PARALLEL }, (_, i) => ({
      externalId: ' Same-User ',
      groups: [groups[i % 6]!, groups[(i + 1) % 6]!, groups[(i + 3) % 6]!].sort(),
      userAttributes: [
        { name: 'n', value: i },
        { name: 'tag', value: `t${i}` },
      ],
      userProfile: { displayName: `name ${i}` },
    }));
    const responses = await Promise.all(bodies.map((body) => account.generate(body)));
    expect(responses.map((r) => r.status)).toEqual(bodies.map(() => 200));

    const list = await account.request({ method: 'GET', url: `/api/v1/embed-tenants/${account.name}/users`, as: account.admin });
    expect(list.body.items).toHaveLength(1);
    const user = list.body.items[0];
    const n = user.userAttributes.find((a: { name: string }) => a.name === 'n').value;
    const winner = bodies[n]!;
    expect(user.groups).toEqual(winner.groups);
    expect(user.userAttributes).toEqual([
      { name: 'n', value: n },
      { name: 'tag', value: `t${n}` },
    ]);
    expect(user.userProfile.displayName).toBe(`name ${n}`);
  });

  it('simultaneous creator-mode calls defining the same new names all succeed with one definition each', async () => {
    const account = await embedAccount(server());
    await account.creatorMode();
    const responses = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        account.generate({
          externalId: `user-${i % 4}`,
          creatorMode: true,
          embedTenantName: 'race-tenant',
          groupDefinitions: [{ name: 'b' }, { name: 'a', description: 'A' }],
          userAttributeDefinitions: [
            { name: 'z', type: 'string' },
            { name: 'y', type: 'number' },
          ],
          groups: ['a', 'b'],
          userAttributes: [{ name: 'y', value: i }],
        }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(responses.map(() => 200));
    expect(await account.footprint()).toMatchObject({ embed_tenant: 1, embed_group: 2, embed_user_attribute: 2, external_user: 4 });
  });

  it('simultaneous conflicting type definitions: one type wins, the others get "cannot change type", never a 500', async () => {
    const account = await embedAccount(server());
    await account.creatorMode();
    const responses = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        account.generate({
          externalId: `user-${i}`,
          creatorMode: true,
          embedTenantName: 'race-tenant',
          userAttributeDefinitions: [{ name: 'x', type: i % 2 === 0 ? 'string' : 'number' }],
        }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 400)).toBe(true);
    for (const r of responses.filter((r) => r.status === 400)) expect(r.body.error).toBe('cannot change type');
    const created = await account.footprint();
    expect(created.external_user).toBe(statuses.filter((s) => s === 200).length);
    expect(created.embed_user_attribute).toBe(1);
  });
});

describeOnStores(
  'section 8 limit under concurrency',
  (server) => {
    it('simultaneous creation of many new users never passes the limit', async () => {
      const account = await embedAccount(server());
      const responses = await Promise.all(Array.from({ length: PARALLEL }, (_, i) => account.generate({ externalId: `new-${i}` })));
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(5);
      expect(statuses.filter((s) => s === 422)).toHaveLength(PARALLEL - 5);
      expect(await account.footprint()).toMatchObject({ external_user: 5, embed_session: 5 });
    });
  },
  { PLINTH_MAX_EXTERNAL_USERS: '5' },
);
