import { defineVerb } from '../../core/define.js';
import { AuthError, UsageError } from '../../core/errors.js';
import type { Factory } from '../../core/factory.js';
import type { Context } from '../../core/config.js';
import { schemeFor } from '../../core/target.js';
import { deviceLogin } from './device-flow.js';

export const verb = defineVerb({
  name: 'login',
  summary: 'Log in to a Plinth server and save the credentials as a context',
  description:
    'Without --api-key, runs the device flow: prints a URL and a one-time code, and waits while you approve it in a browser.\n' +
    'With --api-key, checks the key and saves it. Credentials go to the config file (mode 0600).',
  options: [
    { flags: '--url <base_url>', description: 'Base URL of the server, e.g. https://acme.plinth.example.com' },
    { flags: '--api-key <key>', description: 'Log in with an API key instead of the device flow' },
    { flags: '--name <context>', description: 'Name of the context to save (default: the current one, or "default")' },
  ],
  examples: ['plinth login --url http://127.0.0.1:4000', 'plinth login --api-key sk-… --url http://127.0.0.1:4000 --name local'],
  async run(f, _args, opts) {
    const config = await f.config();
    const name: string = opts.name ?? f.globals.context ?? config.current_context ?? 'default';
    const url = (opts.url ?? f.io.env.PLINTH_API_URL ?? config.contexts[name]?.url)?.replace(/\/+$/, '');
    if (!url) throw new UsageError('login needs --url <base_url> (or PLINTH_API_URL)');
    if (!/^https?:\/\//i.test(url)) throw new UsageError(`--url must start with http:// or https://, got "${url}"`);

    const context: Context = opts.apiKey ? await keyContext(f, url, opts.apiKey) : await deviceLogin(f, url);
    config.contexts[name] = context;
    config.current_context = name;
    await f.saveConfig(config);
    f.output.notice(`Logged in to ${url} as ${context.user ?? 'unknown'}; saved as context "${name}".`);
  },
});

async function keyContext(f: Factory, url: string, key: string): Promise<Context> {
  const scheme = schemeFor(key, f.io.env.PLINTH_AUTH_SCHEME);
  const client = f.clientFor({ url, credential: key, scheme, source: 'flag' });
  const me = await client.request('GET', '/api/v1/auth/whoami', { allowErrors: true });
  if (me.status === 401) throw new AuthError(`The server refused this key: ${me.data?.error ?? 'unauthenticated'}`, 'Check the key and the URL.');
  if (me.status >= 400) throw client.errorOf(me);
  const who = me.data?.credential?.name ? `${me.data.user?.email ?? '?'} (key "${me.data.credential.name}")` : me.data?.user?.email;
  return { url, api_key: key, ...(scheme === 'bearer' ? { auth_scheme: 'bearer' } : {}), user: who };
}
