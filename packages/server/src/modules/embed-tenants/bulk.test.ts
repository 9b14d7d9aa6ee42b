import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { describeOnStores, type TestServer } from '../../test-support/server.js';
import { embedAccount, type EmbedAccount } from '../embed/test-fixtures.js';

/** Bulk provisioning writes set-based; these prove it still behaves as if each entry were sent alone (4.5 rule 5). */
const bulk = (account: EmbedAccount, users: unknown[]) =>
  account.request({ method: 'POST', url: `/api/v1/embed-tenants/${account.name}/users`, as: account.admin, body: { users } });

async function counted(server: TestServer, accountId: number) {
  const { rows } = await sql<{ counter: number; users: number }>`
    select (select external_user_count from embed_account where account_id = ${accountId}) as counter,
           (select count(*) from external_user where account_id = ${accountId})::int as users`.execute(server.store.db);
  return rows[0]!;
}

describeOnStores('bulk provisioning, set-based', (server) => {
  it('4.5 rule 5: a repeated externalId applies after its earlier entries, in request order', async () => {
    const account = await embedAccount(server());
    for (const name of ['g1', 'g2', 'g3']) await account.group(name);
    const response = await bulk(account, [
      { externalId: 'ann', userProfile: { displayName: 'First' }, groups: ['g1', 'g2'] },
      { externalId: 'bob', groups: ['g3'] },
      { externalId: 'ANN', email: 'ann@example.com' },
      { externalId: 'ann', userProfile: { displayName: 'Last' }, groups: ['g3'] },
      { externalId: 'bob', groups: [] },
    ]);
    expect(response.body.succeeded.map((s: { index: number }) => s.index)).toEqual([0, 1, 2, 3, 4]);
    expect(await account.externalUser('ann')).toMatchObject({
      email: 'ann@example.com',
      userProfile: { displayName: 'Last' },
      groups: ['g3'],
    });
    expect(await account.externalUser('bob')).toMatchObject({ groups: [] });
    expect(await counted(server(), account.id)).toEqual({ counter: 2, users: 2 });
  });

  it('4.5 rule 5: an entry the database refuses fails alone and leaves nothing; the rest of its request applies', async () => {
    const account = await embedAccount(server());
    await account.group('g1');
    await bulk(account, [{ externalId: 'kept', userProfile: { displayName: 'Before' }, groups: ['g1'] }]);
    // A refusal no check in the service foresees: the set-based write fails and each entry is retried alone.
    await sql`create function refuse_boom() returns trigger language plpgsql as $$
      begin if new.external_id like 'boom%' then raise exception 'refused'; end if; return new; end $$`.execute(server().store.db);
    await sql`create trigger refuse_boom before insert or update on external_user for each row execute function refuse_boom()`.execute(
      server().store.db,
    );
    try {
      const response = await bulk(account, [
        { externalId: 'new-1', groups: ['g1'] },
        { externalId: 'boom', groups: ['g1'] },
        { externalId: 'kept', userProfile: { displayName: 'After' }, groups: [] },
      ]);
      expect(response.status).toBe(200);
      expect(response.body.succeeded).toEqual([
        { index: 0, externalId: 'new-1' },
        { index: 2, externalId: 'kept' },
      ]);
      expect(response.body.failed).toEqual([{ index: 1, externalId: 'boom', error: { status: 500, message: 'Internal server error' } }]);
    } finally {
      await sql`drop trigger refuse_boom on external_user; drop function refuse_boom()`.execute(server().store.db);
    }
    expect(await account.externalUser('boom')).toBeUndefined();
    expect(await account.externalUser('new-1')).toMatchObject({ groups: ['g1'] });
    expect(await account.externalUser('kept')).toMatchObject({ userProfile: { displayName: 'After' }, groups: [] });
    expect(await counted(server(), account.id)).toEqual({ counter: 2, users: 2 });
  });
});

describeOnStores(
  'bulk provisioning at the section 8 limit',
  (server) => {
    it('8 and 4.5: slots go to new users in request order; a repeat of a refused user is refused too; the counter stays exact', async () => {
      const account = await embedAccount(server());
      await account.generate({ externalId: 'old' });
      const response = await bulk(account, [
        { externalId: 'n1' },
        { externalId: 'n2' },
        { externalId: 'n3' },
        { externalId: 'n3', userProfile: { displayName: 'again' } },
        { externalId: 'n2', userProfile: { displayName: 'again' } },
        { externalId: 'old', userProfile: { displayName: 'Renamed' } },
      ]);
      expect(response.body.succeeded.map((s: { index: number }) => s.index)).toEqual([0, 1, 4, 5]);
      expect(response.body.failed.map((f: { index: number }) => f.index)).toEqual([2, 3]);
      for (const failed of response.body.failed)
        expect(failed.error).toMatchObject({ status: 422, message: expect.stringMatching(/limit of 3/) });
      expect(await account.externalUser('n3')).toBeUndefined();
      expect(await account.externalUser('n2')).toMatchObject({ userProfile: { displayName: 'again' } });
      expect(await account.externalUser('old')).toMatchObject({ userProfile: { displayName: 'Renamed' } });
      expect(await counted(server(), account.id)).toEqual({ counter: 3, users: 3 });
    });

    it('8: concurrent bulk requests of new users never pass the limit, and the counter matches the users', async () => {
      const account = await embedAccount(server());
      const requests = Array.from({ length: 6 }, (_, r) =>
        bulk(account, [{ externalId: `r${r}-a` }, { externalId: `shared` }, { externalId: `r${r}-b` }]),
      );
      const responses = await Promise.all(requests);
      expect(responses.map((r) => r.status)).toEqual(responses.map(() => 200));
      const succeeded = responses.flatMap((r) => r.body.succeeded.map((s: { externalId: string }) => s.externalId));
      expect(new Set(succeeded.filter((id: string) => id !== 'shared')).size).toBeLessThanOrEqual(3);
      expect(await counted(server(), account.id)).toEqual({ counter: 3, users: 3 });
    });
  },
  { PLINTH_MAX_EXTERNAL_USERS: '3' },
);
