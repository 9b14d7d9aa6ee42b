import { randomBytes } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { openTestStoreAgain } from '../../test-support/stores.js';
import { describeOnStores, TEST_BASE_DOMAIN, type TestServer } from '../../test-support/server.js';
import { CommandError } from '../command.js';
import { accountsVerb } from './index.js';

/** Runs `plinth-server accounts <args>` against a store; its output lines, or the CommandError it ends with. */
async function run(server: TestServer, args: string[], db = server.store.db): Promise<string[]> {
  const lines: string[] = [];
  await accountsVerb(args[0])(args.slice(1), { config: server.config, db, out: (line) => lines.push(line) });
  return lines;
}

// Ends in a letter: `ops-<digits>` would be a deployment's host (http/deployment-hosts.ts).
const newName = () => `ops-${randomBytes(4).toString('hex')}x`;

/** Issue 10, accounts: operators create, list, disable and enable accounts from the server binary. */
describeOnStores('plinth-server accounts', (server) => {
  const me = (name: string, key: string) =>
    server().app.inject({
      method: 'GET',
      url: '/api/v1/users/me',
      headers: { host: `${name}.${TEST_BASE_DOMAIN}`, authorization: `Api-Key ${key}` },
    });

  it('create makes an account with an admin, prints its admin key once, and refuses a name taken', async () => {
    const name = newName();
    const lines = await run(server(), ['create', name]);
    expect(lines[0]).toBe(`Created account "${name}", served at http://${name}.${TEST_BASE_DOMAIN}.`);
    const key = /^Admin API key \(shown once\): (sk-[A-Za-z0-9]+)$/.exec(lines[1]!)?.[1];
    expect(key).toBeDefined();
    const response = await me(name, key!);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ role: 'admin' });

    await expect(run(server(), ['create', name])).rejects.toThrow(new CommandError(`an account named "${name}" already exists`));
  });

  it.each([
    [['create'], 'usage: plinth-server accounts create <name>'],
    [['create', 'a', 'b'], 'usage: plinth-server accounts create <name>'],
    [['create', 'Bad_Name'], 'account name "Bad_Name" must be 3 to 63 characters of a-z, 0-9 and -, starting with a letter'],
    [['create', 'team-2'], 'account name "team-2" must not end in - and digits: <name>-<id>.<base domain> is a deployment\'s host'],
    [['disable'], 'usage: plinth-server accounts disable <name>'],
    [['list', 'x'], 'usage: plinth-server accounts list'],
    [['rename', 'x'], 'unknown command "accounts rename"; usage: plinth-server accounts create|list|disable|enable [<name>]'],
    [['toString'], 'unknown command "accounts toString"; usage: plinth-server accounts create|list|disable|enable [<name>]'],
  ])('%j is a usage error (exit 2): %s', async (args, message) => {
    const error = await run(server(), args).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CommandError);
    expect(error).toMatchObject({ message, exitCode: 2 });
  });

  it('disable refuses every request to the account with 403, list shows it, and enable undoes it', async () => {
    const name = newName();
    const key = (await run(server(), ['create', name]))[1]!.split(': ')[1]!;
    expect(await run(server(), ['disable', name])).toEqual([
      `Disabled account "${name}": every request to it is refused until \`plinth-server accounts enable ${name}\`.`,
    ]);
    const refused = await me(name, key);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe(`The account "${name}" has been disabled by an operator`);
    const listed = (await run(server(), ['list'])).find((line) => line.startsWith(`${name} `));
    expect(listed).toMatch(new RegExp(`^${name} +disabled since \\d{4}-\\d\\d-\\d\\dT`));

    expect(await run(server(), ['enable', name])).toEqual([`Enabled account "${name}": it is served again.`]);
    expect((await me(name, key)).statusCode).toBe(200);
    expect((await run(server(), ['list'])).find((line) => line.startsWith(`${name} `))).toMatch(new RegExp(`^${name} +active `));
    await expect(run(server(), ['disable', 'nobody-here'])).rejects.toThrow(new CommandError('no account is named "nobody-here"'));
  });

  it('list prints a header and one line per account, marking the default one', async () => {
    const lines = await run(server(), ['list']);
    expect(lines[0]).toMatch(/^NAME +STATUS +CREATED$/);
    await run(server(), ['create', 'demo']).catch(() => undefined);
    expect((await run(server(), ['list'])).find((line) => line.startsWith('demo '))).toMatch(/default \(PLINTH_TENANT\)$/);
  });

  describe('on PostgreSQL, create and disable run by another process', () => {
    it('reach a running server at once, through the notification', async ({ skip }) => {
      if (server().kind !== 'postgres') skip();
      const name = newName();
      expect((await me(name, 'sk-none')).statusCode).toBe(404); // the server now remembers that no account has that name
      const other = await openTestStoreAgain(server().store, 1);
      try {
        const key = (await run(server(), ['create', name], other.db))[1]!.split(': ')[1]!;
        await vi.waitFor(async () => expect((await me(name, key)).statusCode).toBe(200), { timeout: 3_000, interval: 50 });
        await run(server(), ['disable', name], other.db);
        await vi.waitFor(async () => expect((await me(name, key)).statusCode).toBe(403), { timeout: 3_000, interval: 50 });
      } finally {
        await other.close();
      }
    });
  });
});
