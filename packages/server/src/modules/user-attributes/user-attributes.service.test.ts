import { expect, it } from 'vitest';
import { ApiError } from '../../http/errors.js';
import { describeOnStores } from '../../test-support/server.js';

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describeOnStores('user attributes service', (server) => {
  const attributes = () => server().services.userAttributes;

  it('creates definitions with identifier names unique per account', async () => {
    const account = await server().newAccount();
    const other = await server().newAccount();
    const region = await attributes().create(account.id, { name: 'region', type: 'string', displayName: 'Region', defaultValue: 'eu' });
    expect(region).toMatchObject({ name: 'region', type: 'string', displayName: 'Region', defaultValue: 'eu', description: null });
    const duplicate = await failure(attributes().create(account.id, { name: 'region', type: 'number' }));
    expect(duplicate.status).toBe(409);
    expect(duplicate.message).toContain('"region"');
    await expect(attributes().create(other.id, { name: 'region', type: 'number' })).resolves.toMatchObject({ type: 'number' });
    for (const name of ['', 'has space', 'dash-ed', 'dot.ted', 'x'.repeat(101)]) {
      expect((await failure(attributes().create(account.id, { name, type: 'string' }))).status, name).toBe(400);
    }
    await expect(attributes().create(account.id, { name: `A_1${'x'.repeat(97)}`, type: 'string' })).resolves.toBeDefined();
  });

  it('rejects a defaultValue that does not parse as the type, on create and update', async () => {
    const account = await server().newAccount();
    const error = await failure(attributes().create(account.id, { name: 'n', type: 'number', defaultValue: 'many' }));
    expect(error.status).toBe(400);
    expect(error.message).toContain('number');
    const ok = await attributes().create(account.id, { name: 'n', type: 'number_array', defaultValue: '[1,2]' });
    expect((await failure(attributes().update(account.id, ok.id, { defaultValue: '["a"]' }))).status).toBe(400);
    await expect(attributes().update(account.id, ok.id, { defaultValue: null })).resolves.toMatchObject({ defaultValue: null });
  });

  it('type is immutable: changing it is 400 "cannot change type", repeating it is fine', async () => {
    const account = await server().newAccount();
    const attribute = await attributes().create(account.id, { name: 'tier', type: 'string' });
    const error = await failure(attributes().update(account.id, attribute.id, { type: 'number', displayName: 'Tier' }));
    expect(error.status).toBe(400);
    expect(error.message).toBe('cannot change type');
    expect(await attributes().get(account.id, attribute.id)).toMatchObject({ type: 'string', displayName: null });
    await expect(attributes().update(account.id, attribute.id, { type: 'string', description: 'd' })).resolves.toMatchObject({
      description: 'd',
    });
  });

  it('2.6 values: set, overwrite supplied names, leave others, clear with null', async () => {
    const account = await server().newAccount();
    await attributes().create(account.id, { name: 'region', type: 'string' });
    await attributes().create(account.id, { name: 'ids', type: 'number_array' });
    const user = account.member.id;
    await attributes().setValues(account.id, user, [
      { name: 'region', value: 'eu' },
      { name: 'ids', value: [1, 2] },
    ]);
    const after = await attributes().setValues(account.id, user, [{ name: 'region', value: 'us' }]);
    expect(after).toEqual([
      { name: 'region', value: 'us' },
      { name: 'ids', value: [1, 2] },
    ]);
    await attributes().setValues(account.id, user, [{ name: 'ids', value: null }]);
    expect(await attributes().getValues(account.id, user)).toEqual([{ name: 'region', value: 'us' }]);
    expect(await attributes().getValues(account.id, account.admin.id)).toEqual([]);
  });

  it('2.6 rule 3: duplicate names in one request are 400 and change nothing', async () => {
    const account = await server().newAccount();
    await attributes().create(account.id, { name: 'region', type: 'string' });
    const error = await failure(
      attributes().setValues(account.id, account.member.id, [
        { name: 'region', value: 'eu' },
        { name: 'region', value: 'us' },
      ]),
    );
    expect(error.status).toBe(400);
    expect(error.message).toContain('region');
    expect(await attributes().getValues(account.id, account.member.id)).toEqual([]);
  });

  it('2.6 rule 1: an unknown name fails with "User attributes not found", atomically', async () => {
    const account = await server().newAccount();
    const other = await server().newAccount();
    await attributes().create(account.id, { name: 'region', type: 'string' });
    await attributes().create(other.id, { name: 'theirs', type: 'string' });
    for (const name of ['nope', 'theirs']) {
      const error = await failure(
        attributes().setValues(account.id, account.member.id, [
          { name: 'region', value: 'eu' },
          { name, value: 'x' },
        ]),
      );
      expect(error.status).toBe(400);
      expect(error.message).toBe('User attributes not found');
    }
    expect(await attributes().getValues(account.id, account.member.id)).toEqual([]);
  });

  it('a value of the wrong type is 400 naming the attribute and its type, and nothing is written', async () => {
    const account = await server().newAccount();
    await attributes().create(account.id, { name: 'region', type: 'string' });
    await attributes().create(account.id, { name: 'level', type: 'number' });
    const error = await failure(
      attributes().setValues(account.id, account.member.id, [
        { name: 'region', value: 'eu' },
        { name: 'level', value: 'high' },
      ]),
    );
    expect(error.status).toBe(400);
    expect(error.message).toContain('"level"');
    expect(error.message).toContain('number');
    expect(await attributes().getValues(account.id, account.member.id)).toEqual([]);
  });

  it("deleting a definition takes its values; another account's definition or user is 404", async () => {
    const account = await server().newAccount();
    const other = await server().newAccount();
    const region = await attributes().create(account.id, { name: 'region', type: 'string' });
    await attributes().setValues(account.id, account.member.id, [{ name: 'region', value: 'eu' }]);
    await attributes().delete(account.id, region.id);
    expect(await attributes().getValues(account.id, account.member.id)).toEqual([]);
    expect((await failure(attributes().get(other.id, region.id))).status).toBe(404);
    const foreign = await attributes().create(other.id, { name: 'x', type: 'string' });
    expect((await failure(attributes().get(account.id, foreign.id))).status).toBe(404);
    expect((await failure(attributes().delete(account.id, foreign.id))).status).toBe(404);
    expect((await failure(attributes().getValues(account.id, other.member.id))).status).toBe(404);
    expect((await failure(attributes().setValues(account.id, other.member.id, []))).status).toBe(404);
  });

  it('findByNames returns the existing definitions of this account only', async () => {
    const account = await server().newAccount();
    await attributes().create(account.id, { name: 'a', type: 'string' });
    await attributes().create(account.id, { name: 'b', type: 'number' });
    const found = await attributes().findByNames(account.id, ['b', 'a', 'zzz']);
    expect(found.map((d) => d.name).sort()).toEqual(['a', 'b']);
  });
});
