import { defineVerb } from '../../core/define.js';
import { UsageError } from '../../core/errors.js';
import { userIdOf } from '../../core/users.js';

export const setPassword = defineVerb({
  name: 'set-password',
  summary: "Set a user's password, used to approve device logins (setUserPassword)",
  args: ['<user>'],
  options: [
    { flags: '--password-stdin', description: 'Read the password from standard input (recommended)' },
    { flags: '--password <password>', description: 'The password (visible in shell history; prefer --password-stdin)' },
  ],
  examples: ['printf %s "$NEW_PASSWORD" | plinth users set-password ada@example.com --password-stdin'],
  async run(f, [user], opts) {
    const password = opts.passwordStdin ? (await f.io.readStdin()).replace(/\r?\n$/, '') : opts.password;
    if (!password) throw new UsageError('Give the password with --password-stdin or --password');
    const client = await f.client();
    await client.request('PUT', `/api/v1/users/${await userIdOf(client, user)}/password`, { body: { password } });
    f.output.notice(`Password set for user ${user}.`);
  },
});
