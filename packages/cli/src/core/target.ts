import type { ConfigFile, Context } from './config.js';
import { AuthError, UsageError } from './errors.js';
import type { IO } from './io.js';

export type Scheme = 'api-key' | 'bearer';

/** Where requests go and with which credential, after flags, environment and context are layered. */
export interface Target {
  url: string;
  credential?: string;
  scheme: Scheme;
  refreshToken?: string;
  /** The context that supplies values (and receives refreshed tokens), if any. */
  contextName?: string;
  /** Where the credential came from: `flag`, `env` or `context <name>`. */
  source: string;
  /** What to tell the user when the server refuses the credential (default: log in again). */
  authHint?: string;
}

export interface TargetFlags {
  context?: string;
  url?: string;
  apiKey?: string;
}

/** `PLINTH_AUTH_SCHEME` forces the scheme; otherwise `sk-` keys use Api-Key and the rest Bearer. */
export function schemeFor(credential: string, forced: string | undefined): Scheme {
  const value = forced?.trim().toLowerCase();
  if (value === 'bearer') return 'bearer';
  if (value === 'api-key' || value === 'apikey') return 'api-key';
  if (value) throw new UsageError(`PLINTH_AUTH_SCHEME must be "bearer" or "api-key", not "${forced}"`);
  return credential.startsWith('sk-') ? 'api-key' : 'bearer';
}

/**
 * A base URL as the user gave it, checked before any request: an absolute http(s) URL that parses
 * (a missing scheme, `ftp://` or a broken IPv6 literal is a usage error naming where it came from).
 */
export function checkBaseUrl(value: string, from: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) {
    throw new UsageError(`${from} must be an http:// or https:// URL, got "${value}"`, 'For example: http://127.0.0.1:4000');
  }
  return value.replace(/\/+$/, '');
}

/**
 * Precedence: flags, then environment (`PLINTH_API_URL`, `PLINTH_API_KEY`), then the context.
 * An explicit `--context` is a flag, so it wins over the environment; without it the current
 * context fills whatever the environment leaves out.
 */
export function resolveTarget(io: IO, config: ConfigFile, flags: TargetFlags): Target {
  const explicit = flags.context;
  if (explicit && !config.contexts[explicit]) {
    throw new UsageError(
      `No context named "${explicit}"`,
      `Known contexts: ${Object.keys(config.contexts).join(', ') || 'none'}. Run \`plinth login --name ${explicit}\`.`,
    );
  }
  const name = explicit ?? config.current_context;
  const context: Context | undefined = name ? config.contexts[name] : undefined;
  const env = explicit ? {} : { url: io.env.PLINTH_API_URL?.trim() || undefined, key: io.env.PLINTH_API_KEY?.trim() || undefined };
  const forced = io.env.PLINTH_AUTH_SCHEME;

  const url = flags.url ?? env.url ?? context?.url;
  if (!url) throw new AuthError('No server configured', 'Run `plinth login --url <base_url>`, or set PLINTH_API_URL and PLINTH_API_KEY.');
  const from = flags.url !== undefined ? '--url' : env.url !== undefined ? 'PLINTH_API_URL' : `The URL of context "${name}"`;
  const base = checkBaseUrl(url, from);

  if (flags.apiKey) return { url: base, credential: flags.apiKey, scheme: schemeFor(flags.apiKey, forced), source: 'flag' };
  if (env.key) return { url: base, credential: env.key, scheme: schemeFor(env.key, forced), source: 'env PLINTH_API_KEY' };
  // A context's credential goes only to that context's server, never to a URL from elsewhere.
  if (context && name && context.url.replace(/\/+$/, '') === base) {
    const credential = context.api_key ?? context.access_token;
    const scheme = context.auth_scheme ? schemeFor('', context.auth_scheme) : context.api_key ? 'api-key' : 'bearer';
    return { url: base, credential, scheme, refreshToken: context.refresh_token, contextName: name, source: `context ${name}` };
  }
  return { url: base, scheme: 'bearer', source: 'none' };
}

export function authorization(target: Target): string | undefined {
  if (!target.credential) return undefined;
  return target.scheme === 'api-key' ? `Api-Key ${target.credential}` : `Bearer ${target.credential}`;
}
