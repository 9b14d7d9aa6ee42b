import { defineVerb } from '../../core/define.js';
import { AuthError, UsageError } from '../../core/errors.js';
import type { Factory } from '../../core/factory.js';
import type { Target } from '../../core/target.js';

/** Where the server's invite page lives (`INVITE_PAGE_PATH` of the server's login module). */
const INVITE_PAGE = '/login/invite';

/**
 * The server and token of an invite: a link carries both (the server is the part before
 * `/login/invite`, so the tenant is the link's host); a bare token goes to the configured server.
 */
async function inviteTarget(f: Factory, tokenOrUrl: string): Promise<{ target: Target; token: string }> {
  if (/^https?:\/\//i.test(tokenOrUrl)) {
    let url: URL;
    try {
      url = new URL(tokenOrUrl);
    } catch {
      throw new UsageError(`Not a valid invite link: "${tokenOrUrl}"`);
    }
    const token = url.searchParams.get('token');
    const at = url.pathname.lastIndexOf(INVITE_PAGE);
    if (!token || at < 0) throw new UsageError(`Not an invite link (expected …${INVITE_PAGE}?token=…): "${tokenOrUrl}"`);
    return { target: { url: `${url.origin}${url.pathname.slice(0, at)}`, scheme: 'bearer', source: 'invite link' }, token };
  }
  if (!tokenOrUrl.trim()) throw new UsageError('Give the invite link or its token');
  const target = await f.target().catch((error: unknown) => {
    if (error instanceof AuthError)
      throw new UsageError('No server configured for a bare token: give the whole invite link, or set PLINTH_API_URL');
    throw error;
  });
  return { target, token: tokenOrUrl.trim() };
}

/** The new password: from standard input with --password-stdin, else asked twice on a terminal. */
async function newPassword(f: Factory, fromStdin: boolean): Promise<string> {
  if (fromStdin) {
    const password = (await f.io.readStdin()).replace(/\r?\n$/, '');
    if (!password) throw new UsageError('--password-stdin read an empty password');
    return password;
  }
  if (!f.io.stdinIsTTY) throw new UsageError('Standard input is not a terminal: pipe the password in with --password-stdin');
  const password = await f.io.promptSecret('New password: ');
  if (!password) throw new UsageError('The password is empty');
  if ((await f.io.promptSecret('Repeat the password: ')) !== password)
    throw new UsageError('The passwords do not match; nothing was changed');
  return password;
}

export const acceptInvite = defineVerb({
  name: 'accept-invite',
  summary: 'Set your password with a one-time invite link or its token (acceptInvite)',
  description:
    'The link (from `plinth users invite`) names its server; a bare token goes to the current context or PLINTH_API_URL.\n' +
    'The password is asked for on a terminal (twice), or read from standard input with --password-stdin; it is never an argument.\n' +
    'No credential is needed or sent. Afterwards, log in with `plinth login --url <server>`.',
  args: ['<link-or-token>'],
  options: [{ flags: '--password-stdin', description: 'Read the new password from standard input' }],
  examples: [
    "plinth users accept-invite 'https://acme.plinth.example.com/login/invite?token=pli_…'",
    'printf %s "$NEW_PASSWORD" | plinth users accept-invite pli_… --password-stdin',
  ],
  async run(f, [tokenOrUrl], opts) {
    const { target, token } = await inviteTarget(f, tokenOrUrl ?? '');
    const password = await newPassword(f, opts.passwordStdin === true);
    await f.clientFor(target).request('POST', '/api/v1/auth/invites/accept', { anonymous: true, body: { token, password } });
    f.output.notice(`Password set. Log in with \`plinth login --url ${target.url}\`.`);
  },
});
