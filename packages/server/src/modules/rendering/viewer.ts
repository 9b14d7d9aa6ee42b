import { createHash } from 'node:crypto';
import { ApiError } from '../../http/errors.js';
import type { AccessTokenPrincipal } from '../../http/principal.js';
import type { AccountRow } from '../../store/schema.js';
import type { Services } from '../module.js';
import { RenderError } from './errors.js';
import type { ViewerInput } from './types.js';

export type ViewerServices = Pick<Services, 'accounts' | 'embed' | 'users'>;

/**
 * Rendering mints sessions for the account itself, not for a caller: whoever scheduled the
 * rendering was authorised when they did (notifications checks the dashboard's policies). An
 * admin's reach lets it mint for an internal admin too; it names no user and no credential, so
 * the session's audit row shows no API key.
 */
const renderer = (accountId: number): AccessTokenPrincipal => ({
  kind: 'accessToken',
  accountId,
  credentialId: 0,
  userId: 0,
  role: 'admin',
  deploymentIds: null,
});

/**
 * A one-time embed session for the viewer, minted by the embed module exactly as generate-session
 * would (so an embed user is created or updated by the same rules), limited to this dashboard.
 */
export async function mintSession(services: ViewerServices, input: ViewerInput): Promise<{ sessionId: string; account: AccountRow }> {
  const account = await services.accounts.findById(input.accountId);
  if (!account) throw new RenderError(`Account ${input.accountId} not found`, false);
  const common = { deploymentId: input.deploymentId, publicDashboardId: input.dashboard };
  let body;
  if (input.viewer.kind === 'user') {
    const user = await services.users.find(input.accountId, input.viewer.userId);
    if (!user?.email) throw new RenderError(`User ${input.viewer.userId} of account ${input.accountId} not found`, false);
    body = { ...common, internalId: user.email };
  } else {
    const { embedTenantName, externalId, groups, userAttributes, securityContext } = input.viewer;
    body = { ...common, externalId, embedTenantName, groups, userAttributes, securityContext };
  }
  try {
    const { sessionId } = await services.embed.generateSession({ id: account.id, name: account.name }, renderer(account.id), body);
    return { sessionId, account };
  } catch (error) {
    // The embed module's refusals (embedding off, no such deployment, a bad attribute) are the input's.
    if (error instanceof ApiError)
      throw new RenderError(`The viewer cannot open this dashboard: ${error.message}`, false, { cause: error });
    throw new RenderError(`Minting the viewer's session failed: ${(error as Error).message}`, true, { cause: error });
  }
}

/**
 * What decides the rows a viewer sees: the deployment, the dashboard, and exactly what the data
 * API's access policies evaluate for the viewer's embed token (groups, attribute values, security
 * context, roles; see data-api/caller.ts), as the embed module resolves them (stored values and
 * defaults included), plus the tenant. Equal claims mean equal queries and equal rows; viewers
 * whose claims differ are never merged, even when their rows happen to agree.
 */
export async function viewerFingerprint(services: ViewerServices, input: ViewerInput): Promise<string> {
  const { sessionId, account } = await mintSession(services, input);
  const ref = { id: account.id, name: account.name };
  let claims;
  try {
    const { token } = await services.embed.exchange(ref, sessionId);
    claims = await services.embed.verifyEmbedToken(ref, token);
  } catch (error) {
    throw new RenderError(`Reading the viewer's claims failed: ${(error as Error).message}`, !(error instanceof ApiError), {
      cause: error,
    });
  }
  return sha256(
    canonical({
      deploymentId: input.deploymentId,
      dashboard: input.dashboard,
      embedTenant: claims.embedTenant,
      groups: [...claims.groups].sort(),
      userAttributes: claims.userAttributes,
      securityContext: claims.securityContext ?? {},
      roles: [...(claims.roles ?? [])].sort(),
    }),
  );
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** JSON with every object's keys in order, so equal values give equal text. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}
