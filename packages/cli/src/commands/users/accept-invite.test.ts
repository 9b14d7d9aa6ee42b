import { expect, it } from 'vitest';
import { cliRunner, describeCli } from '../../test-support/harness.js';

describeCli('plinth users accept-invite', (ctx, home) => {
  const plinth = cliRunner(home);
  const admin = () => ({ PLINTH_API_URL: ctx().url, PLINTH_API_KEY: ctx().admin.apiKey });
  let n = 0;
  /** A fresh user and an invite for them, made with the admin's key. */
  const invited = async () => {
    const email = `invitee${++n}@clitest.example.com`;
    const user = await plinth(['users', 'create', '--email', email, '--role', 'member', '--json'], { env: admin() });
    expect(user.code, user.stderr).toBe(0);
    const invite = await plinth(['users', 'invite', String(JSON.parse(user.stdout).id), '--json'], { env: admin() });
    expect(invite.code, invite.stderr).toBe(0);
    return { email, ...(JSON.parse(invite.stdout) as { url: string; token: string }) };
  };
  const canSignIn = (email: string, password: string) =>
    ctx()
      .server.services.login.signIn.authenticate(ctx().accountId, email, password)
      .then(
        () => true,
        () => false,
      );
  const done = () => `Password set. Log in with \`plinth login --url ${ctx().url}\`.\n`;

  it('acceptInvite: the link names the server; the password comes from --password-stdin; no credential is needed', async () => {
    const { email, url } = await invited();
    // No PLINTH_API_URL, no key, no context: everything comes from the link.
    const accepted = await plinth(['users', 'accept-invite', url, '--password-stdin'], { stdin: 'correct horse battery\n' });
    expect(accepted).toMatchObject({ code: 0, stdout: '', stderr: done() });
    expect(await canSignIn(email, 'correct horse battery')).toBe(true);

    const again = await plinth(['users', 'accept-invite', url, '--password-stdin'], { stdin: 'another long password' });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^error: This invite link has already been used \(HTTP 400\) \[request [\w-]+\]\n$/);
    expect(await canSignIn(email, 'correct horse battery')).toBe(true);
  });

  it('acceptInvite on a terminal: asks twice without echo; a bare token goes to the configured server', async () => {
    const { email, token } = await invited();
    const mismatch = await plinth(['users', 'accept-invite', token], {
      env: { PLINTH_API_URL: ctx().url },
      stdinIsTTY: true,
      secrets: ['first long password', 'second long password'],
    });
    expect(mismatch).toMatchObject({
      code: 2,
      stdout: '',
      stderr: expect.stringContaining(
        'New password: \nRepeat the password: \nerror: The passwords do not match; nothing was changed\n\nUsage: plinth ',
      ),
    });

    const accepted = await plinth(['users', 'accept-invite', token], {
      env: { PLINTH_API_URL: ctx().url },
      stdinIsTTY: true,
      secrets: ['a terminal password', 'a terminal password'],
    });
    expect(accepted).toMatchObject({ code: 0, stdout: '', stderr: `New password: \nRepeat the password: \n${done()}` });
    expect(await canSignIn(email, 'a terminal password')).toBe(true);
  });

  it('acceptInvite errors: no password source (exit 2), no --password flag, bad links, unknown tokens and short passwords', async () => {
    const { email, url, token } = await invited();
    expect(await plinth(['users', 'accept-invite', url], { stdin: 'piped but not asked for' })).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(
        'error: Standard input is not a terminal: pipe the password in with --password-stdin\n\nUsage: plinth ',
      ),
    });
    // A password never goes on the command line, where `ps` and shell history would show it.
    const flag = await plinth(['users', 'accept-invite', url, '--password', 'visible in ps']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/^error: unknown option '--password'/);
    expect(await plinth(['users', 'accept-invite', url, '--password-stdin'], { stdin: '\n' })).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('error: --password-stdin read an empty password\n\nUsage: plinth '),
    });
    expect(
      await plinth(['users', 'accept-invite', `${ctx().url}/login/invite`, '--password-stdin'], { stdin: 'long enough password' }),
    ).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(
        `error: Not an invite link (expected …/login/invite?token=…): "${ctx().url}/login/invite"\n\nUsage: plinth `,
      ),
    });
    expect(await plinth(['users', 'accept-invite', token, '--password-stdin'], { stdin: 'long enough password' })).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(
        'error: No server configured for a bare token: give the whole invite link, or set PLINTH_API_URL\n\nUsage: plinth ',
      ),
    });

    const unknown = await plinth(['users', 'accept-invite', 'pli_doesnotexist', '--password-stdin'], {
      env: { PLINTH_API_URL: ctx().url },
      stdin: 'long enough password',
    });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^error: This invite link is not valid \(HTTP 404\)/);
    const short = await plinth(['users', 'accept-invite', url, '--password-stdin'], { stdin: 'short' });
    expect(short.code).toBe(1);
    expect(short.stderr).toMatch(/^error: .*password.* \d+ characters \(HTTP 400\)/);
    // None of the failures used the invite up.
    expect(await plinth(['users', 'accept-invite', url, '--password-stdin'], { stdin: 'finally long enough' })).toMatchObject({
      code: 0,
      stderr: done(),
    });
    expect(await canSignIn(email, 'finally long enough')).toBe(true);
  });
});
