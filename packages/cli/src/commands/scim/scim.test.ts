import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, expect, it } from 'vitest';
import { cliRunner, describeCli } from '../../test-support/harness.js';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

describeCli('plinth scim search, bulk and discovery', (ctx, home) => {
  const plinth = cliRunner(home);
  const env = () => ({ PLINTH_API_URL: ctx().url, PLINTH_API_KEY: ctx().admin.apiKey });
  let token = '';
  /** The environment of SCIM commands: the platform URL, and the SCIM token of this file. */
  const scim = async () => {
    if (!token) {
      const created = await plinth(['scim', 'tokens', 'create', '--name', 'cli-scim-test', '--json'], { env: env() });
      expect(created.code, created.stderr).toBe(0);
      token = JSON.parse(created.stdout).token;
    }
    return { ...env(), PLINTH_SCIM_TOKEN: token };
  };
  // Each test has an account of its own, so a token of its own.
  beforeEach(() => {
    token = '';
  });
  const ok = async (argv: string[], stdin?: string) => {
    const result = await plinth(argv, { env: await scim(), stdin });
    expect(result.code, result.stderr).toBe(0);
    return result;
  };
  const idOf = async (resource: 'users' | 'groups', filter: string) => {
    const body = JSON.parse((await ok(['scim', resource, 'list', '--filter', filter, '--json'])).stdout);
    expect(body.totalResults).toBe(1);
    return body.Resources[0].id as string;
  };

  it('users search and groups search: the query in a POST body, flags or -d, with the same table and --json as list', async () => {
    for (const name of ['sam', 'sara', 'tom'])
      await ok(['scim', 'users', 'create', '--user-name', `${name}@search.example.com`, '--given-name', name]);
    const sam = await idOf('users', 'userName eq "sam@search.example.com"');
    const sara = await idOf('users', 'userName eq "sara@search.example.com"');

    const found = await ok([
      'scim',
      'users',
      'search',
      '--filter',
      'userName sw "sa" and userName ew "@search.example.com"',
      '--sort-by',
      'userName',
    ]);
    expect(found.stdout).toBe(
      'ID                                    USER NAME                NAME  ACTIVE  EXTERNAL ID\n' +
        `${sam}  sam@search.example.com   sam   true\n` +
        `${sara}  sara@search.example.com  sara  true\n`,
    );
    expect(found.stderr).toBe('');

    // A page of a larger result says where the next page starts.
    const page = await ok([
      'scim',
      'users',
      'search',
      '--filter',
      'userName ew "@search.example.com"',
      '--sort-by',
      'userName',
      '--count',
      '1',
      '--start-index',
      '2',
    ]);
    expect(page.stdout).toBe(
      `ID                                    USER NAME                NAME  ACTIVE  EXTERNAL ID\n${sara}  sara@search.example.com  sara  true\n`,
    );
    expect(page.stderr).toBe('More results: add --start-index 3 (3 in all)\n');

    // -d gives the SearchRequest; flags override it; attributes go as a list.
    const json = await ok([
      'scim',
      'users',
      'search',
      '-d',
      JSON.stringify({ filter: 'userName eq "nobody@example.com"', count: 5 }),
      '--filter',
      'userName eq "tom@search.example.com"',
      '--attributes',
      'userName, active',
      '--json',
    ]);
    const body = JSON.parse(json.stdout);
    expect(body).toMatchObject({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
      totalResults: 1,
      startIndex: 1,
      itemsPerPage: 1,
    });
    expect(Object.keys(body.Resources[0]).sort()).toEqual(['active', 'id', 'schemas', 'userName']);
    expect(json.stdout).toBe(`${JSON.stringify(body)}\n`);

    await ok(['scim', 'groups', 'create', '--display-name', 'Searchers', '--member', sam, '--member', sara]);
    const searchers = await idOf('groups', 'displayName eq "Searchers"');
    const groups = await ok(['scim', 'groups', 'search', '-d', JSON.stringify({ filter: 'displayName eq "searchers"' })]);
    expect(groups.stdout).toBe(`ID                                    DISPLAY NAME  MEMBERS  EXTERNAL ID\n${searchers}  Searchers     2\n`);
    const none = await ok(['scim', 'groups', 'search', '--filter', 'displayName eq "nothing"']);
    expect(none).toMatchObject({ stdout: '', stderr: 'No results\n' });

    // The list verb takes the same flags, as query parameters.
    const listed = await ok([
      'scim',
      'users',
      'list',
      '--filter',
      'userName ew "@search.example.com"',
      '--sort-by',
      'userName',
      '--sort-order',
      'descending',
      '--count',
      '1',
    ]);
    expect(listed.stdout).toBe(
      `ID                                    USER NAME               NAME  ACTIVE  EXTERNAL ID\n${await idOf('users', 'userName eq "tom@search.example.com"')}  tom@search.example.com  tom   true\n`,
    );
    expect(listed.stderr).toBe('More results: add --start-index 2 (3 in all)\n');
  });

  it('search errors: a bad filter is the SCIM error (exit 1), a bad --count a usage error (exit 2), no SCIM token exit 2', async () => {
    const bad = await plinth(['scim', 'users', 'search', '--filter', 'userName zz "x"'], { env: await scim() });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^error: .+ \(HTTP 400\) \[request [\w-]+\]\n$/);
    expect(await plinth(['scim', 'users', 'search', '--count', 'ten'], { env: await scim() })).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('error: --count expects a whole number, got "ten"\n\nUsage: plinth '),
    });
    const noToken = await plinth(['scim', 'groups', 'search'], { env: env() });
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toMatch(
      /^error: SCIM commands need a SCIM token: pass --scim-token or set PLINTH_SCIM_TOKEN\nhint: Create one with `plinth scim tokens create --name <name>`.\n\nUsage: plinth scim groups search /,
    );
    // An API key is not a SCIM token: the server refuses it (401, exit 4).
    const apiKey = await plinth(['scim', 'users', 'search', '--scim-token', ctx().admin.apiKey], { env: env() });
    expect(apiKey.code).toBe(4);
    // A refused SCIM token is about the SCIM token, not about `plinth login`.
    const hint = (from: string) =>
      `hint: The SCIM token from ${from} was refused: pass a valid one with --scim-token or PLINTH_SCIM_TOKEN (create one with \`plinth scim tokens create --name <name>\`).\n`;
    expect(apiKey.stderr).toMatch(/^error: .+\(HTTP 401\)/);
    expect(apiKey.stderr.endsWith(hint('--scim-token'))).toBe(true);
    const badEnv = await plinth(['scim', 'users', 'list'], { env: { ...env(), PLINTH_SCIM_TOKEN: 'scim_notarealtoken' } });
    expect(badEnv.code).toBe(4);
    expect(badEnv.stderr.endsWith(hint('PLINTH_SCIM_TOKEN'))).toBe(true);
    expect(badEnv.stderr).not.toContain('plinth login');
  });

  it('search across resource types (POST /api/scim/v2/.search)', async () => {
    await ok(['scim', 'users', 'create', '--user-name', 'root@search.example.com', '--external-id', 'ext-root']);
    await ok(['scim', 'groups', 'create', '--display-name', 'Root searchers', '--external-id', 'ext-root-group']);
    const user = await idOf('users', 'userName eq "root@search.example.com"');
    const group = await idOf('groups', 'displayName eq "Root searchers"');
    const both = await ok(['scim', 'search', '--filter', 'externalId sw "ext-root"']);
    expect(both.stdout.split('\n').sort()).toEqual(
      [
        '',
        'ID                                    TYPE   NAME                     EXTERNAL ID',
        `${user}  User   root@search.example.com  ext-root`,
        `${group}  Group  Root searchers           ext-root-group`,
      ].sort(),
    );
    const json = JSON.parse((await ok(['scim', 'search', '--filter', 'externalId sw "ext-root"', '--json'])).stdout);
    expect(json.totalResults).toBe(2);
  });

  it('bulk: from a file (a table, exit 1 when an operation fails) and from standard input (--json, --fail-on-errors)', async () => {
    await ok(['scim', 'users', 'create', '--user-name', 'taken@bulk.example.com']);
    const dir = await mkdtemp(join(tmpdir(), 'plinth-scim-bulk-'));
    const file = join(dir, 'bulk.json');
    await writeFile(
      file,
      JSON.stringify([
        {
          method: 'POST',
          path: '/Groups',
          bulkId: 'g1',
          data: { schemas: [GROUP], displayName: 'Bulk group', members: [{ value: 'bulkId:u1' }] },
        },
        { method: 'POST', path: '/Users', bulkId: 'u1', data: { schemas: [USER], userName: 'new@bulk.example.com' } },
        { method: 'POST', path: '/Users', bulkId: 'dup', data: { schemas: [USER], userName: 'taken@bulk.example.com' } },
      ]),
    );
    const run = await plinth(['scim', 'bulk', '--file', file], { env: await scim() });
    expect(run.code).toBe(1);
    const user = await idOf('users', 'userName eq "new@bulk.example.com"');
    const group = await idOf('groups', 'displayName eq "Bulk group"');
    const base = `${ctx().url}/api/scim/v2`;
    expect(run.stdout).toBe(
      '#  METHOD  PATH     BULK ID  STATUS  LOCATION OR ERROR\n' +
        `0  POST    /Groups  g1       201     ${base}/Groups/${group}\n` +
        `1  POST    /Users   u1       201     ${base}/Users/${user}\n` +
        '2  POST    /Users   dup      409     uniqueness: userName "taken@bulk.example.com" is already taken in this account\n',
    );
    expect(run.stderr).toBe('2 succeeded, 1 failed\nerror: 1 of 3 SCIM operations failed\n');
    const members = JSON.parse((await ok(['scim', 'groups', 'get', group, '--json'])).stdout).members;
    expect(members.map((m: { value: string }) => m.value)).toEqual([user]);

    // Standard input, a whole BulkRequest; failOnErrors stops after the first failure.
    const request = {
      Operations: [
        { method: 'DELETE', path: '/Users/no-such-user' },
        { method: 'DELETE', path: `/Users/${user}` },
      ],
    };
    const stopped = await plinth(['scim', 'bulk', '--file', '-', '--fail-on-errors', '1', '--json'], {
      env: await scim(),
      stdin: JSON.stringify(request),
    });
    expect(stopped.code).toBe(1);
    expect(JSON.parse(stopped.stdout)).toEqual({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:BulkResponse'],
      Operations: [
        {
          method: 'DELETE',
          status: '404',
          response: { schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '404', detail: 'User no-such-user not found' },
        },
      ],
    });
    expect(stopped.stderr).toBe('0 succeeded, 1 failed, 1 not run (failOnErrors)\nerror: 1 of 2 SCIM operations failed\n');
    await ok(['scim', 'users', 'get', user]);

    const all = await ok(['scim', 'bulk', '--file', '-'], JSON.stringify({ Operations: [{ method: 'DELETE', path: `/Users/${user}` }] }));
    const path = `/Users/${user}`;
    expect(all.stdout).toBe(
      `#  METHOD  ${'PATH'.padEnd(path.length)}  BULK ID  STATUS  LOCATION OR ERROR\n0  DELETE  ${path}           204\n`,
    );
    expect(all.stderr).toBe('1 succeeded, 0 failed\n');
  });

  it('bulk: usage errors (exit 2) and the bulkActionLimit (413, exit 1)', async () => {
    const env = await scim();
    expect(await plinth(['scim', 'bulk'], { env })).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("error: required option '--file <path>' not specified"),
    });
    expect(await plinth(['scim', 'bulk', '--file', '-'], { env, stdin: '{"Operations": [' })).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^error: standard input is not valid JSON: /),
    });
    expect(await plinth(['scim', 'bulk', '--file', '-'], { env, stdin: '{"operations": []}' })).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(
        'error: standard input must hold a SCIM BulkRequest ({"Operations": [...]}) or an array of operations\n\nUsage: plinth ',
      ),
    });
    expect(await plinth(['scim', 'bulk', '--file', '/nonexistent/bulk.json'], { env })).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('error: Cannot read /nonexistent/bulk.json: ENOENT\n\nUsage: plinth '),
    });
    expect(await plinth(['scim', 'bulk', '--file', '-', '--fail-on-errors', '0'], { env, stdin: '[]' })).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('error: --fail-on-errors must be a positive whole number, got "0"\n\nUsage: plinth '),
    });

    expect(
      (
        await plinth(['tenant', 'update', '--bulk-action-limit', '1'], {
          env: { PLINTH_API_URL: ctx().url, PLINTH_API_KEY: ctx().admin.apiKey },
        })
      ).code,
    ).toBe(0);
    try {
      const op = { method: 'DELETE', path: '/Users/x' };
      const tooMany = await plinth(['scim', 'bulk', '--file', '-'], { env, stdin: JSON.stringify([op, op]) });
      expect(tooMany).toMatchObject({ code: 1, stdout: '' });
      expect(tooMany.stderr).toMatch(
        /^error: A bulk request may hold at most 1 operations \(bulkActionLimit\); this one has 2 \(HTTP 413\) \[request [\w-]+\]\n$/,
      );
    } finally {
      await plinth(['tenant', 'update', '--bulk-action-limit', '1000'], {
        env: { PLINTH_API_URL: ctx().url, PLINTH_API_KEY: ctx().admin.apiKey },
      });
    }
  });

  it('patch with -d holding only Operations: the PatchOp URN the server requires is added', async () => {
    await ok(['scim', 'users', 'create', '--user-name', 'patched@cli.example.com']);
    const id = await idOf('users', 'userName eq "patched@cli.example.com"');
    const patched = await ok([
      'scim',
      'users',
      'patch',
      id,
      '-d',
      JSON.stringify({ Operations: [{ op: 'replace', path: 'title', value: 'Chef' }] }),
      '--json',
    ]);
    expect(JSON.parse(patched.stdout)).toMatchObject({ id, title: 'Chef' });
  });

  it('discovery: service-provider-config, resource-types and schemas, as tables and --json', async () => {
    const config = await ok(['scim', 'service-provider-config']);
    expect(config.stdout).toBe(
      [
        'patch                  true',
        'bulk                   maxOperations 1000, maxPayloadSize 1048576',
        'filter                 maxResults 1000',
        'changePassword         false',
        'sort                   true',
        'etag                   true',
        'authenticationSchemes  oauthbearertoken',
        'documentationUri       https://datatracker.ietf.org/doc/html/rfc7644',
        '',
      ].join('\n'),
    );
    const configJson = JSON.parse((await ok(['scim', 'service-provider-config', '--json'])).stdout);
    expect(configJson.schemas).toEqual(['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig']);

    expect((await ok(['scim', 'resource-types', 'list'])).stdout).toBe(
      ['ID     NAME   ENDPOINT  SCHEMA', `User   User   /Users    ${USER}`, `Group  Group  /Groups   ${GROUP}`, ''].join('\n'),
    );
    expect((await ok(['scim', 'resource-types', 'get', 'Group'])).stdout).toBe(
      [
        'id                Group',
        'name              Group',
        'endpoint          /Groups',
        "description       The account's tenant-wide groups.",
        `schema            ${GROUP}`,
        'schemaExtensions',
        '',
      ].join('\n'),
    );
    expect(JSON.parse((await ok(['scim', 'resource-types', 'get', 'User', '--json'])).stdout)).toMatchObject({
      id: 'User',
      endpoint: '/Users',
      schema: USER,
    });
    const missing = await plinth(['scim', 'resource-types', 'get', 'Widget'], { env: await scim() });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: Resource type Widget not found \(HTTP 404\)/);

    expect((await ok(['scim', 'schemas', 'list'])).stdout).toBe(
      [
        ['ID', 'NAME', 'ATTRIBUTES', 'DESCRIPTION'],
        [USER, 'User', '21', "The account's internal users."],
        [GROUP, 'Group', '2', "The account's tenant-wide groups."],
        [ENTERPRISE, 'EnterpriseUser', '6', 'RFC 7643 §4.3 enterprise User extension.'],
      ]
        .map(
          ([id, name, count, description]) => `${id!.padEnd(ENTERPRISE.length)}  ${name!.padEnd(14)}  ${count!.padEnd(10)}  ${description}`,
        )
        .concat('')
        .join('\n'),
    );
    expect((await ok(['scim', 'schemas', 'get', GROUP])).stdout).toBe(
      [
        `${GROUP}  Group`,
        'ATTRIBUTE        TYPE       MULTI  REQUIRED  MUTABILITY  RETURNED  UNIQUENESS',
        'displayName      string     false  true      readWrite   default   server',
        'members          complex    true   false     readWrite   default   none',
        'members.value    string     false  false     immutable   default   none',
        'members.$ref     reference  false  false     immutable   default   none',
        'members.display  string     false  false     readOnly    default   none',
        'members.type     string     false  false     immutable   default   none',
        '',
      ].join('\n'),
    );
    const user = await ok(['scim', 'schemas', 'get', USER, '--json']);
    expect(JSON.parse(user.stdout).attributes.map((a: { name: string }) => a.name)).toContain('userName');
    expect((await plinth(['scim', 'schemas', 'get', 'urn:example:nothing'], { env: await scim() })).code).toBe(1);
    // Discovery takes a SCIM token like every SCIM endpoint.
    expect((await plinth(['scim', 'schemas', 'list'], { env: env() })).code).toBe(2);
  });
});
