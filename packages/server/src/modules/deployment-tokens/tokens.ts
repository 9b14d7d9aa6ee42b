import { jwtVerify, SignJWT } from 'jose';
import { badRequest } from '../../http/errors.js';
import type { DataTokenClaims } from '../../http/principal.js';
import type { DeploymentSecrets } from './secrets.js';

export const DEFAULT_EXPIRES_IN_SECONDS = 24 * 60 * 60;
export const MAX_EXPIRES_IN_SECONDS = 30 * 24 * 60 * 60;

export interface MintOptions {
  securityContext?: Record<string, unknown> | undefined;
  expiresIn?: number | undefined;
  /** Environment tokens name their environment; the data API may serve that environment only. */
  environment?: string | undefined;
}

export interface MintedToken {
  token: string;
  securityContext: Record<string, unknown>;
  expiresAt: Date;
}

/** A data API token: HS256 with the deployment's secret, claims `{deploymentId, securityContext}` as Cube's own. */
export async function mintDataToken(
  secrets: DeploymentSecrets,
  accountId: number,
  deploymentId: number,
  options: MintOptions,
): Promise<MintedToken> {
  const expiresIn = options.expiresIn ?? DEFAULT_EXPIRES_IN_SECONDS;
  if (expiresIn > MAX_EXPIRES_IN_SECONDS) throw badRequest(`expiresIn may be at most ${MAX_EXPIRES_IN_SECONDS} seconds (30 days)`);
  const securityContext = options.securityContext ?? {};
  const exp = Math.floor(Date.now() / 1000) + expiresIn;
  const token = await new SignJWT({
    deploymentId,
    securityContext,
    ...(options.environment !== undefined ? { environment: options.environment } : {}),
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime(exp)
    .sign(await secrets.key(accountId, deploymentId));
  return { token, securityContext, expiresAt: new Date(exp * 1000) };
}

/** Signature and expiry with the secret of the deployment the token names; null when anything is wrong. */
export async function verifyDataToken(
  secrets: DeploymentSecrets,
  accountId: number,
  deploymentId: number,
  token: string,
): Promise<DataTokenClaims | null> {
  const key = await secrets.existing(accountId, deploymentId);
  if (!key) return null;
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], requiredClaims: ['exp'] });
    if (payload.deploymentId !== deploymentId) return null;
    const context = payload.securityContext ?? {};
    if (typeof context !== 'object' || context === null || Array.isArray(context)) return null;
    const environment = payload.environment;
    if (environment !== undefined && typeof environment !== 'string') return null;
    return {
      deploymentId,
      securityContext: context as Record<string, unknown>,
      expiresAt: payload.exp ?? null,
      ...(environment !== undefined ? { environment } : {}),
    };
  } catch {
    return null;
  }
}
