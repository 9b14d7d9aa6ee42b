import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { cliRunner, describeCli } from '../../test-support/harness.js';
import { parseCsv } from './csv.js';

describeCli('plinth embed and scim', (ctx, home) => {
  const plinth = cliRunner(home);
  const env = () => ({ PLINTH_API_URL: ctx().url, PLINTH_API_KEY: ctx().admin.apiKey });

  it('4.3: generate-session from flags, exchange once, revoke, and the session audit', async () => {
    const deployment = JSON.parse((await plinth(['deployments', 'create', '--name', 'embed', '--json'], { env: env() })).stdout);
    await plinth(['groups', 'create', '--name', 'viewers'], { env: env() });
    const session = await plinth(
      ['embed', 'generate-session', '--deployment', String(deployment.id), '--external-id', 'Ada@Example.com', '--group', 'viewers'],
      { env: env() },
    );
    expect(session.code, session.stderr).toBe(0);
    const sessionId = session.stdout.trim();
    expect(sessionId).not.toBe('');
    const token = await plinth(['embed', 'token', sessionId], { env: env() });
    expect(token.code, token.stderr).toBe(0);
    expect(token.stdout.trim().length).toBeGreaterThan(20);
    const again = await plinth(['embed', 'token', sessionId], { env: env() });
    expect(again).toMatchObject({ code: 1, stderr: 'error: Unknown, already exchanged, revoked or expired embed session (HTTP 401)\n' });

    const fromData = await plinth(
      ['embed', 'generate-session', '-d', JSON.stringify({ deploymentId: deployment.id, externalId: 'bob@example.com' }), '--json'],
      { env: env() },
    );
    const second = JSON.parse(fromData.stdout).sessionId;
    expect((await plinth(['embed', 'revoke', second], { env: env() })).code).toBe(0);
    const audit = await plinth(['embed', 'sessions', '--json'], { env: env() });
    const items = JSON.parse(audit.stdout).items as Array<{ id: number; revoked: boolean }>;
    expect(items.length).toBeGreaterThanOrEqual(2);
    // The ID the audit lists is what revoke takes, and an unknown one is a 404 naming it.
    const open = items.find((item) => !item.revoked)!;
    expect((await plinth(['embed', 'revoke', String(open.id)], { env: env() })).code).toBe(0);
    const listed = JSON.parse((await plinth(['embed', 'sessions', '--json'], { env: env() })).stdout).items;
    expect(listed.find((item: { id: number }) => item.id === open.id).revoked).toBe(true);
    const unknown = await plinth(['embed', 'revoke', '999999'], { env: env() });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^error: Embed session 999999 not found \(HTTP 404\)/);
    const unknownSession = await plinth(['embed', 'revoke', 'no-such-session-id'], { env: env() });
    expect(unknownSession.stderr).toMatch(/^error: Unknown embed session \(HTTP 404\)/);
    const table = await plinth(['embed', 'sessions'], { env: env() });
    expect(table.stdout.split('\n')[0]).toMatch(/^ID +CREATED +DEPLOYMENT +TENANT +USER +CREATOR +EXCHANGED +REVOKED$/);
    expect(table.stdout).toContain('ada@example.com');

    const missing = await plinth(['embed', 'generate-session', '--deployment', String(deployment.id)], { env: env() });
    expect(missing.code).toBe(1);
  });

  it('generate-session: the Cube Cloud fields from flags land in the token; tenant update turns embedding off', async () => {
    const deployment = JSON.parse((await plinth(['deployments', 'create', '--name', 'cube-fields', '--json'], { env: env() })).stdout);
    const session = await plinth(
      [
        'embed',
        'generate-session',
        '--deployment',
        String(deployment.id),
        '--external-id',
        'guest-1',
        '--ephemeral',
        '--ephemeral-ttl',
        '600',
        '--role',
        'viewer',
        '--role',
        'analyst',
        '--public-dashboard',
        'sales',
        '--theme',
        '{"font":"Inter","chat":{"inputColor":"#fff"}}',
      ],
      { env: env() },
    );
    expect(session.code, session.stderr).toBe(0);
    const token = await plinth(['embed', 'token', session.stdout.trim()], { env: env() });
    const claims = JSON.parse(Buffer.from(token.stdout.trim().split('.')[1]!, 'base64url').toString());
    expect(claims).toMatchObject({
      roles: ['analyst', 'viewer'],
      publicDashboardId: 'sales',
      embedTheme: { font: 'Inter', chat: { inputColor: '#fff' } },
      user: { externalId: 'guest-1', expiresAt: expect.any(String) },
    });
    // What the embedded page reads of the token: the session's theme over the account's.
    const context = await plinth(['embed', 'context', '--token', token.stdout.trim()], { env: env() });
    expect(context.code, context.stderr).toBe(0);
    expect(context.stdout).toMatch(/^User +guest-1$/m);
    expect(context.stdout).toMatch(/^Font +Inter$/m);
    const raw = JSON.parse((await plinth(['embed', 'context', '--token', token.stdout.trim(), '--json'], { env: env() })).stdout);
    expect(raw).toMatchObject({ showDashboardChat: true, embedTheme: { font: 'Inter', chat: { inputColor: '#fff' } } });
    const ttlAlone = await plinth(['embed', 'generate-session', '--deployment', '1', '--external-id', 'x', '--ephemeral-ttl', '600'], {
      env: env(),
    });
    expect(ttlAlone).toMatchObject({ code: 2 });
    expect(ttlAlone.stderr).toContain('--ephemeral-ttl requires --ephemeral');
    const badTheme = await plinth(['embed', 'generate-session', '--deployment', '1', '--external-id', 'x', '--theme', '[1]'], {
      env: env(),
    });
    expect(badTheme.stderr).toContain('--theme must be a JSON object');

    expect((await plinth(['tenant', 'update', '--embedding-enabled', 'false'], { env: env() })).code).toBe(0);
    const off = await plinth(['embed', 'generate-session', '--deployment', String(deployment.id), '--external-id', 'guest-2'], {
      env: env(),
    });
    expect(off.code).toBe(1);
    expect(off.stderr).toContain('Embedding is not enabled for this account');
    const shown = JSON.parse((await plinth(['tenant', 'show', '--json'], { env: env() })).stdout);
    expect(shown.embeddingEnabled).toBe(false);
    expect((await plinth(['tenant', 'update', '--embedding-enabled', 'true'], { env: env() })).code).toBe(0);
  });

  it('4.5: provision one user, then a bulk CSV with a failing entry (exit 1), and list the tenant', async () => {
    expect((await plinth(['groups', 'create', '--name', 'viewers'], { env: env() })).code).toBe(0);
    const one = await plinth(
      ['embed', 'provision', 'acme-corp', '--external-id', 'carol@example.com', '--display-name', 'Carol', '--json'],
      { env: env() },
    );
    expect(one.code, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout)).toMatchObject({ externalId: 'carol@example.com' });
    const dir = await mkdtemp(join(tmpdir(), 'plinth-bulk-'));
    const csv = join(dir, 'users.csv');
    await writeFile(
      csv,
      'externalId,email,displayName,groups\ndan@example.com,dan@example.com,"Dan, Jr.",viewers\neve@example.com,,Eve,no-such-group\n',
    );
    const bulk = await plinth(['embed', 'provision-bulk', 'acme-corp', '--file', csv], { env: env() });
    expect(bulk.code).toBe(1);
    expect(bulk.stdout).toMatch(
      /^# +EXTERNAL ID +RESULT +MESSAGE\n0 +dan@example.com +ok *\n1 +eve@example.com +failed \(\d+\) +Groups with names no-such-group not found\n$/,
    );
    expect(bulk.stderr).toBe('1 succeeded, 1 failed\nerror: 1 of 2 users were not provisioned\n');
    const users = await plinth(['embed', 'users', 'list', 'acme-corp'], { env: env() });
    expect(users.stdout).toContain('Dan, Jr.');
    const user = await plinth(['embed', 'users', 'get', 'acme-corp', 'dan@example.com', '--json'], { env: env() });
    expect(JSON.parse(user.stdout).groups).toEqual(['viewers']);
    const groups = await plinth(['embed', 'groups', 'list', 'acme-corp'], { env: env() });
    expect(groups.code).toBe(0);
    const attributes = await plinth(['embed', 'attributes', 'list', 'acme-corp'], { env: env() });
    expect(attributes.code).toBe(0);
  });

  it('scim: tokens through the platform credential, users and groups through the SCIM token', async () => {
    const created = JSON.parse((await plinth(['scim', 'tokens', 'create', '--name', 'okta', '--json'], { env: env() })).stdout);
    const scim = { ...env(), PLINTH_SCIM_TOKEN: created.token };
    const noToken = await plinth(['scim', 'users', 'list'], { env: env() });
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain('SCIM commands need a SCIM token');

    const user = await plinth(
      ['scim', 'users', 'create', '--user-name', 'frank@example.com', '--given-name', 'Frank', '--family-name', 'Li', '--json'],
      { env: scim },
    );
    expect(user.code, user.stderr).toBe(0);
    const id = JSON.parse(user.stdout).id;
    const list = await plinth(['scim', 'users', 'list', '--filter', 'userName eq "frank@example.com"'], { env: scim });
    expect(list.stdout).toContain(`${id}  frank@example.com  Frank Li  true`);
    const patch = await plinth(
      [
        'scim',
        'users',
        'patch',
        id,
        '-d',
        JSON.stringify({
          schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
          Operations: [{ op: 'replace', path: 'active', value: false }],
        }),
        '--json',
      ],
      { env: scim },
    );
    expect(JSON.parse(patch.stdout).active).toBe(false);
    const group = JSON.parse(
      (await plinth(['scim', 'groups', 'create', '--display-name', 'Engineering', '--member', id, '--json'], { env: scim })).stdout,
    );
    expect((await plinth(['scim', 'groups', 'get', group.id], { env: scim })).stdout).toContain('Engineering');
    const del = await plinth(['scim', 'groups', 'delete', group.id], { env: scim });
    expect(del.code, del.stderr).toBe(0);
    expect((await plinth(['scim', 'users', 'delete', id], { env: scim })).code).toBe(0);
    const gone = await plinth(['scim', 'users', 'get', id], { env: scim });
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/\(HTTP 404\)/);
    expect((await plinth(['scim', 'tokens', 'revoke', String(created.id)], { env: env() })).code).toBe(0);
  });

  it('reads CSV with quotes, commas and a BOM', () => {
    expect(parseCsv('\uFEFFa,b\n"x, y","say ""hi"""\r\n')).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
    ]);
  });
});
