import { decodeJwt } from 'jose';
import type { CredentialVerifier } from '../../http/auth.js';
import { ApiError, forbidden } from '../../http/errors.js';
import type { DataTokenPrincipal, EmbedTokenPrincipal } from '../../http/principal.js';
import type { AccountRow } from '../../store/schema.js';
import { TOKEN_AUDIENCE } from '../embed/public.js';
import type { EmbedService } from '../embed/service.js';
import type { DeploymentSecrets } from './secrets.js';
import { verifyDataToken } from './tokens.js';

/** Cube's own data API answers every unusable token with this, and so does Plinth: it tells a prober nothing. */
export const INVALID_TOKEN = 'Invalid token';

/**
 * The data API's credential: a bare JWT, which is either a data API token (or environment token)
 * signed with its deployment's secret, or an embed token of signed embedding. The unverified
 * payload only says which key to try; the signature, expiry and (for embed tokens) the session
 * decide. Registered for the `dataToken` kind, since http/credential-header.ts cannot tell the two
 * apart; an embed token comes back as an EmbedTokenPrincipal all the same.
 */
export function dataTokenVerifier(secrets: DeploymentSecrets, embed: () => EmbedService): CredentialVerifier<'dataToken'> {
  return async (account, token) => (await verify(secrets, embed, account, token)) as DataTokenPrincipal;
}

async function verify(
  secrets: DeploymentSecrets,
  embed: () => EmbedService,
  account: AccountRow,
  token: string,
): Promise<DataTokenPrincipal | EmbedTokenPrincipal> {
  let payload: ReturnType<typeof decodeJwt>;
  try {
    payload = decodeJwt(token);
  } catch {
    throw forbidden(INVALID_TOKEN);
  }
  const audience = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  if (audience.includes(TOKEN_AUDIENCE)) {
    try {
      const claims = await embed().verifyEmbedToken({ id: account.id, name: account.name }, token);
      return { kind: 'embedToken', accountId: account.id, claims };
    } catch (error) {
      if (error instanceof ApiError) throw forbidden(INVALID_TOKEN);
      throw error;
    }
  }
  const deploymentId = payload.deploymentId;
  if (typeof deploymentId !== 'number' || !Number.isSafeInteger(deploymentId) || deploymentId < 1 || deploymentId > 2_147_483_647) {
    throw forbidden(INVALID_TOKEN);
  }
  const claims = await verifyDataToken(secrets, account.id, deploymentId, token);
  if (!claims) throw forbidden(INVALID_TOKEN);
  return { kind: 'dataToken', accountId: account.id, claims };
}
