import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliRunner } from '../test-support/harness.js';

/**
 * Exit codes and usage as the README states them, checked without a server: every case here must
 * be decided by the client before any request (the URL below has nothing listening, so a request
 * would end in exit 5, not 2).
 */
describe('usage errors, help and exit codes', () => {
  let home = '';
  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'plinth-usage-'));
  });
  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
  });
  const plinth = cliRunner(() => home);
  const nowhere = { PLINTH_API_URL: 'http://127.0.0.1:9', PLINTH_API_KEY: 'sk-notarealkeynotarealkey1' };

  it('help of a group or a verb exits 0 and writes to stdout; a group without a verb is a usage error', async () => {
    for (const argv of [['help'], ['help', 'users'], ['users', '--help'], ['users', 'create', '--help'], ['help', 'login']]) {
      const result = await plinth(argv);
      expect(result.code, argv.join(' ')).toBe(0);
      expect(result.stdout, argv.join(' ')).toMatch(/^Usage: plinth/);
    }
    expect((await plinth(['users'])).code).toBe(2);
  });

  it.each([
    ['localhost:4000', 'no scheme'],
    ['ftp://example.com', 'not http'],
    ['http://[::1', 'bad IPv6'],
    ['http://[fe80::1%zz]:80', 'bad IPv6 zone'],
    ['127.0.0.1:4000', 'host and port only'],
  ])('PLINTH_API_URL=%s (%s) is a usage error naming the variable', async (url) => {
    const result = await plinth(['deployments', 'list'], { env: { ...nowhere, PLINTH_API_URL: url } });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(`error: PLINTH_API_URL must be an http:// or https:// URL, got "${url}"`);
  });

  it('a malformed --url of login is a usage error too', async () => {
    const result = await plinth(['login', '--url', 'ftp://example.com', '--api-key', 'sk-x']);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe('error: --url must be an http:// or https:// URL, got "ftp://example.com"');
  });

  it.each([
    [['deployments', 'create'], 'error: required option --name not given'],
    [['deployments', 'create', '--region', 'eu'], 'error: required option --name not given'],
    [['users', 'create', '--role', 'member'], 'error: required option --email not given'],
    [['groups', 'create'], 'error: required option --name not given'],
    [['attributes', 'create'], 'error: required options --name, --type not given'],
    [['api-keys', 'create'], 'error: required option --name not given'],
    [['scim', 'tokens', 'create'], 'error: required option --name not given'],
  ])('%j: a missing required flag is a usage error before any request', async (argv, message) => {
    const result = await plinth(argv, { env: nowhere });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(message);
    expect(result.stderr).toContain(`\nUsage: plinth ${argv.slice(0, argv[0] === 'scim' ? 3 : 2).join(' ')} [options]\n`);
  });

  it('-d may supply a required field instead of the flag', async () => {
    const result = await plinth(['deployments', 'create', '-d', '{"name": "from json"}'], { env: nowhere });
    expect(result.code).toBe(5);
  });

  it.each([
    [
      ['users', 'create', '--email', 'a@example.com', '--role', 'owner'],
      "error: option '--role <role>' argument 'owner' is invalid. Allowed choices are admin, member.",
    ],
    [
      ['users', 'update', '1', '--role', 'Admin'],
      "error: option '--role <role>' argument 'Admin' is invalid. Allowed choices are admin, member.",
    ],
    [
      ['api-keys', 'create', '--name', 'x', '--role', 'root'],
      "error: option '--role <role>' argument 'root' is invalid. Allowed choices are admin, member.",
    ],
    [
      ['attributes', 'create', '--name', 'x', '--type', 'date'],
      "error: option '--type <type>' argument 'date' is invalid. Allowed choices are string, number, string_array, number_array.",
    ],
  ])('%j: an enum flag is checked by the client and lists the allowed values', async (argv, message) => {
    const result = await plinth(argv, { env: nowhere });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(message);
  });

  it("every verb's --help lists the inherited flags; list verbs their paging flags", async () => {
    for (const argv of [['users', 'create'], ['whoami'], ['scim', 'users', 'list'], ['deployments', 'get']]) {
      const help = (await plinth([...argv, '--help'])).stdout;
      expect(help, argv.join(' ')).toMatch(/\nGlobal Options:\n(.*\n)* {2}--json +Print the raw JSON response/);
      expect(help, argv.join(' ')).toMatch(/\n {2}-c, --context <name> +Use this saved context/);
    }
    const list = (await plinth(['deployments', 'list', '--help'])).stdout;
    expect(list).toMatch(/\n {2}--first <n> +Page size/);
    expect(list).toMatch(/\n {2}--after <cursor> +Continue after this cursor/);
  });

  it("a usage error prints the verb's usage, not the list of commands", async () => {
    const cases: Array<[string[], string]> = [
      [['deployments', 'create', '--bogus'], 'Usage: plinth deployments create [options]'],
      [['deployments', 'get'], 'Usage: plinth deployments get [options] <deployment_id>'],
      [['users', 'update', '1', '--active', 'maybe'], 'Usage: plinth users update [options] <user>'],
      [['deployments', 'crate'], 'Usage: plinth deployments [options] [command]'],
    ];
    for (const [argv, usage] of cases) {
      const result = await plinth(argv, { env: nowhere });
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.stderr, argv.join(' ')).toContain(
        `\n${usage}\nRun \`${usage.split(' [')[0]!.replace('Usage: ', '')} --help\` for its flags and the global flags.\n`,
      );
      expect(result.stderr, argv.join(' ')).not.toContain('Commands:');
    }
    const unknown = await plinth(['frobnicate']);
    expect(unknown).toMatchObject({
      code: 2,
      stderr: "error: unknown command 'frobnicate'\nRun `plinth --help` for the list of commands.\n",
    });
  });
});
