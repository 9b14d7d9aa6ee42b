import { isDeepStrictEqual } from 'node:util';
import { authorize } from '../../http/authorize.js';
import { badRequest, forbidden } from '../../http/errors.js';
import type { ApiKeyPrincipal, EmbedTokenPrincipal, Principal } from '../../http/principal.js';
import type { AccountRow } from '../../store/schema.js';
import type { Services } from '../module.js';
import { normaliseExternalId } from '../embed-tenants/public.js';
import type { ChatSessionSettings, ChatUserQuery } from './schemas.js';

/** Whom a chat request acts for: always an embed user, so queries run under the embed token's policies. */
export interface ChatCaller {
  principal: EmbedTokenPrincipal;
  /** The thread owner key (see ownerOf). */
  owner: string;
  timezone: string | undefined;
}

/**
 * The owner of a thread: the embed tenant and external id, or the internal user. JSON of a tuple,
 * so no external id can be made to read as another tenant's.
 */
export function ownerOf(claims: EmbedTokenPrincipal['claims']): string {
  return claims.user.type === 'external'
    ? JSON.stringify(['external', claims.embedTenant, claims.user.externalId])
    : JSON.stringify(['internal', claims.user.id]);
}

/** The fields of sessionSettings that describe the user; with an embed token each must say what the token says. */
const IDENTITY_FIELDS = [
  'externalId',
  'internalId',
  'email',
  'embedTenantName',
  'userAttributes',
  'groups',
  'roles',
  'securityContext',
] as const;

/**
 * An embed token acts for its own user: sessionSettings may repeat what the token says (Cube's
 * clients send it anyway) but a field that says otherwise is refused, naming it, since honouring it
 * would let the page's user widen their own policies.
 */
export function embedCaller(principal: EmbedTokenPrincipal, settings: ChatSessionSettings | undefined): ChatCaller {
  const { claims } = principal;
  const said: Record<(typeof IDENTITY_FIELDS)[number], unknown> = {
    externalId: claims.user.type === 'external' ? claims.user.externalId : undefined,
    internalId: claims.user.type === 'internal' ? claims.user.email : undefined,
    email: claims.user.email ?? undefined,
    embedTenantName: claims.embedTenant,
    userAttributes: claims.userAttributes,
    groups: [...claims.groups].sort(),
    roles: [...(claims.roles ?? [])].sort(),
    securityContext: claims.securityContext ?? {},
  };
  for (const field of IDENTITY_FIELDS) {
    const sent = settings?.[field];
    if (sent === undefined) continue;
    if (!isDeepStrictEqual(normalised(field, sent), said[field])) {
      throw forbidden(
        `sessionSettings.${field} cannot be changed with an embed token: the user, groups, attributes and security context are the token's`,
      );
    }
  }
  return { principal, owner: ownerOf(claims), timezone: settings?.timezone };
}

function normalised(field: (typeof IDENTITY_FIELDS)[number], value: unknown): unknown {
  if (field === 'externalId' && typeof value === 'string') return value.trim().toLowerCase();
  if ((field === 'groups' || field === 'roles') && Array.isArray(value)) return [...new Set(value)].sort();
  if (field === 'userAttributes' && Array.isArray(value)) {
    return Object.fromEntries((value as { name: string; value?: unknown }[]).map((a) => [a.name, a.value ?? null]));
  }
  return value;
}

/**
 * An API key names the user in sessionSettings, as Cube's server-to-server Chat API: the session is
 * minted, exchanged and verified exactly as generate-session and the embed page would, so the user
 * is made or updated by the same rules and the chat acts under the same token claims.
 */
export async function apiKeyCaller(
  services: Pick<Services, 'embed'>,
  account: AccountRow,
  principal: ApiKeyPrincipal,
  deploymentId: number,
  settings: ChatSessionSettings | undefined,
): Promise<ChatCaller> {
  if (!settings || (settings.externalId === undefined && settings.internalId === undefined)) {
    throw badRequest('sessionSettings.externalId or sessionSettings.internalId is required with an API key');
  }
  const refused = authorize(principal, 'EmbedSessionsManage', { type: 'deployment', id: deploymentId }, 'chat for an embedded user');
  if (refused) throw refused;
  const { timezone, ...user } = settings;
  const ref = { id: account.id, name: account.name };
  const { sessionId } = await services.embed.generateSession(ref, principal, { ...user, deploymentId });
  const { token } = await services.embed.exchange(ref, sessionId);
  const claims = await services.embed.verifyEmbedToken(ref, token);
  const embed: EmbedTokenPrincipal = { kind: 'embedToken', accountId: account.id, claims };
  return { principal: embed, owner: ownerOf(claims), timezone };
}

/** The owner a thread read names: the token's user, or (API key) the user of the query. */
export async function ownerFor(
  services: Pick<Services, 'users'>,
  account: AccountRow,
  principal: Principal,
  query: ChatUserQuery,
): Promise<{ owner: string; deploymentIds: readonly number[] | null }> {
  if (principal.kind === 'embedToken') {
    const sent = Object.keys(query).filter((k) => query[k as keyof ChatUserQuery] !== undefined);
    if (sent.length > 0) throw forbidden(`${sent[0]} cannot be sent with an embed token: the token names the user`);
    return { owner: ownerOf(principal.claims), deploymentIds: [principal.claims.deploymentId] };
  }
  if (principal.kind !== 'apiKey') throw forbidden('Chat threads are read with an embed token or an API key');
  if ((query.externalId === undefined) === (query.internalId === undefined)) {
    throw badRequest('Send exactly one of externalId and internalId with an API key');
  }
  if (query.internalId !== undefined) {
    const user = await services.users.findByEmail(account.id, query.internalId);
    return { owner: JSON.stringify(['internal', user?.id ?? 0]), deploymentIds: principal.deploymentIds };
  }
  const externalId = normaliseExternalId(query.externalId!);
  return { owner: JSON.stringify(['external', query.embedTenantName ?? account.name, externalId]), deploymentIds: principal.deploymentIds };
}
