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
  const verified = new VerifiedDataTokens();
  // A token verified lately is answered synchronously: the pipeline's response cache admits a repeat only so.
  return (account, token) => {
    const known = verified.get(account.id, token);
    if (known) return known;
    return verify(secrets, embed, account, token).then((principal) => {
      if (principal.kind === 'dataToken') verified.remember(token, principal);
      return principal as DataTokenPrincipal;
    });
  };
}

const MAX_VERIFIED = 10_000;

/**
 * Data API tokens already verified, by their exact text: a dashboard sends the same token with
 * every query, and checking its HMAC is most of what a cached answer costs. Safe because the same
 * text verifies the same way while the deployment's secret stays (secrets are never rotated or
 * reused) and nothing revokes a data API token before its expiry, which is checked on every use.
 * Embed tokens are not kept: their sessions can be revoked.
 */
class VerifiedDataTokens {
  private readonly tokens = new Map<string, DataTokenPrincipal>();

  get(accountId: number, token: string): DataTokenPrincipal | undefined {
    const known = this.tokens.get(token);
    if (!known || known.accountId !== accountId) return undefined;
    if (known.claims.expiresAt === null || known.claims.expiresAt * 1000 <= Date.now()) {
      this.tokens.delete(token);
      return undefined;
    }
    return known;
  }

  remember(token: string, principal: DataTokenPrincipal): void {
    if (principal.claims.expiresAt === null) return;
    if (this.tokens.size >= MAX_VERIFIED) this.tokens.clear();
    this.tokens.set(token, principal);
  }
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
