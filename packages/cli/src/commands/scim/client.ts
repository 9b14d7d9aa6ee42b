import { UsageError } from '../../core/errors.js';
import type { Factory } from '../../core/factory.js';
import type { HttpClient } from '../../core/http.js';
import type { OptionSpec } from '../../core/define.js';

export const SCIM_TOKEN_OPTION: OptionSpec = { flags: '--scim-token <token>', description: 'SCIM token (default: PLINTH_SCIM_TOKEN)' };
export const SCIM_JSON = { 'content-type': 'application/scim+json', accept: 'application/scim+json, application/json' };

/**
 * SCIM endpoints take only a SCIM token (section 5). It comes from --scim-token, PLINTH_SCIM_TOKEN,
 * or the context's own credential when that is a SCIM token; the server URL is the context's.
 */
export async function scimClient(f: Factory, opts: Record<string, any>): Promise<HttpClient> {
  const target = await f.target();
  const token: string | undefined = opts.scimToken ?? f.io.env.PLINTH_SCIM_TOKEN ?? (target.credential?.startsWith('scim_') ? target.credential : undefined);
  if (!token) {
    throw new UsageError('SCIM commands need a SCIM token: pass --scim-token or set PLINTH_SCIM_TOKEN', 'Create one with `plinth scim tokens create --name <name>`.');
  }
  return f.clientFor({ url: target.url, credential: token, scheme: 'bearer', source: opts.scimToken ? 'flag' : 'env PLINTH_SCIM_TOKEN' });
}
