import { defineVerb } from '../../core/define.js';
import { AuthError, UsageError } from '../../core/errors.js';
import type { Factory } from '../../core/factory.js';
import type { Context } from '../../core/config.js';
import { checkBaseUrl, schemeFor } from '../../core/target.js';
import { deviceLogin } from './device-flow.js';
import type { Whoami } from './whoami.js';

export const verb = defineVerb({
  name: 'login',
  summary: 'Log in to a Plinth server and save the credentials as a context',
  description:
    'Without --api-key, runs the device flow: prints a URL and a one-time code, and waits while you approve it in a browser.\n' +
    'With --api-key, checks the key and saves it. Credentials go to the config file (mode 0600).\n' +
    'A new context is named from the host and the user (e.g. "127.0.0.1-ada") unless --name is given; a login never\n' +
    'replaces a context that holds another credential (another user or server) unless --force is given.',
  options: [
    { flags: '--url <base_url>', description: 'Base URL of the server, e.g. https://acme.plinth.example.com' },
    { flags: '--api-key <key>', description: 'Log in with an API key instead of the device flow' },
    { flags: '--name <context>', description: 'Name of the context to save (default: <host>-<user>)' },
    { flags: '--force', description: 'Replace a context that holds another credential' },
  ],
  examples: ['plinth login --url http://127.0.0.1:4000', 'plinth login --api-key sk-… --url http://127.0.0.1:4000 --name local'],
  async run(f, _args, opts) {
    const config = await f.config();
    const chosen: string | undefined = opts.name ?? f.globals.context;
    const given = opts.url ?? f.io.env.PLINTH_API_URL?.trim() ?? (chosen ? config.contexts[chosen]?.url : undefined);
    if (!given) throw new UsageError('login needs --url <base_url> (or PLINTH_API_URL)');
    const url = checkBaseUrl(
      given,
      opts.url !== undefined ? '--url' : f.io.env.PLINTH_API_URL?.trim() ? 'PLINTH_API_URL' : `The URL of context "${chosen}"`,
    );
    // Refuse before the device flow when the named context is plainly someone else's server.
    if (chosen && !opts.force) refuseOverwrite(config.contexts[chosen], chosen, { url });

    const context: Context = opts.apiKey ? await keyContext(f, url, opts.apiKey) : await deviceLogin(f, url);
    const name = chosen ?? contextName(url, context.user);
    if (!opts.force) {
      try {
        refuseOverwrite(config.contexts[name], name, context);
      } catch (error) {
        // The login just made is not kept anywhere, so it is revoked rather than left valid.
        if (context.refresh_token) {
          await f
            .clientFor({ url, scheme: 'bearer', source: 'login' })
            .request('POST', '/api/v1/auth/revoke', { anonymous: true, body: { token: context.refresh_token }, allowErrors: true })
            .catch(() => {});
        }
        throw error;
      }
    }
    config.contexts[name] = context;
    config.current_context = name;
    await f.saveConfig(config);
    f.output.notice(`Logged in to ${url} as ${context.user ?? 'unknown'}; saved as context "${name}".`);
  },
});

/** `<host>-<user>`: the host of the URL and the local part of the user's e-mail (`127.0.0.1-ada`). */
export function contextName(url: string, user: string | undefined): string {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  const who = (user ?? '').split(/[@\s]/)[0]?.replace(/[^A-Za-z0-9._-]/g, '') || 'user';
  return `${host}-${who}`;
}

/**
 * A context may be replaced by a login of the same user on the same server (a fresh token), or
 * when it holds no credential (after `plinth logout`); anything else needs --force.
 */
function refuseOverwrite(existing: Context | undefined, name: string, next: { url: string; user?: string }): void {
  if (!existing || (!existing.api_key && !existing.access_token)) return;
  const sameServer = existing.url.replace(/\/+$/, '') === next.url;
  if (sameServer && (next.user === undefined || existing.user === next.user)) return;
  const holder = `${existing.user ?? 'another credential'} on ${existing.url}`;
  throw new UsageError(
    `Context "${name}" holds another credential (${holder}); nothing was saved`,
    'Choose another name with --name, or replace it with --force.',
  );
}

async function keyContext(f: Factory, url: string, key: string): Promise<Context> {
  const scheme = schemeFor(key, f.io.env.PLINTH_AUTH_SCHEME);
  const client = f.clientFor({ url, credential: key, scheme, source: 'flag' });
  const me = await client.request<Partial<Whoami> & { error?: string }>('GET', '/api/v1/auth/whoami', { allowErrors: true });
  if (me.status === 401)
    throw new AuthError(`The server refused this key: ${me.data?.error ?? 'unauthenticated'}`, 'Check the key and the URL.');
  if (me.status >= 400) throw client.errorOf(me);
  const who = me.data?.credential?.name
    ? `${me.data.user?.email ?? '?'} (key "${me.data.credential.name}")`
    : (me.data?.user?.email ?? undefined);
  return { url, api_key: key, ...(scheme === 'bearer' ? { auth_scheme: 'bearer' } : {}), user: who };
}
