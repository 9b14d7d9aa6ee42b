import { defineVerb } from '../../core/define.js';
import { UsageError } from '../../core/errors.js';

export const verb = defineVerb({
  name: 'logout',
  summary: "Remove a context's credentials (the URL stays) and revoke its login on the server",
  options: [{ flags: '--name <context>', description: 'Context to log out of (default: --context or the current one)' }],
  async run(f, _args, opts) {
    const config = await f.config();
    const name: string | undefined = opts.name ?? f.globals.context ?? config.current_context;
    const context = name ? config.contexts[name] : undefined;
    if (!name || !context) throw new UsageError(name ? `No context named "${name}"` : 'No current context to log out of');
    const token = context.refresh_token ?? context.access_token;
    if (token) {
      // Best effort: the credentials are removed locally even when the server cannot be reached.
      try {
        const client = await f.client({ context: name });
        await client.request('POST', '/api/v1/auth/revoke', { anonymous: true, body: { token }, allowErrors: true });
      } catch (error) {
        f.output.notice(`warning: could not revoke the login on the server: ${(error as Error).message}`);
      }
    }
    delete context.api_key;
    delete context.access_token;
    delete context.refresh_token;
    delete context.expires_at;
    delete context.user;
    delete context.auth_scheme;
    await f.saveConfig(config);
    f.output.notice(`Logged out of context "${name}".`);
  },
});
