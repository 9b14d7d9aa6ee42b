import { badRequest } from '../../http/errors.js';
import {
  assertNoDuplicates,
  checkEmail,
  checkPicture,
  normaliseExternalId,
  type Definitions,
  type ExternalUserChange,
} from '../embed-tenants/public.js';
import { withoutNulls, type EmbedThemeOverrides } from './omitted.js';
import type { GenerateSessionInput } from './schemas.js';
import { TOKEN_LIFETIME_SECONDS } from './tokens.js';

/** Fields of 2.4 that describe an external user; with internalId the user's own permissions apply instead. */
const EXTERNAL_ONLY = [
  'email',
  'userProfile',
  'userAttributes',
  'groups',
  'roles',
  'userAttributeDefinitions',
  'groupDefinitions',
  'securityContext',
  'isEphemeral',
  'ephemeralTtlSeconds',
] as const;
const DEFINITIONS = ['userAttributeDefinitions', 'groupDefinitions'] as const;

export type SessionUser =
  | {
      kind: 'external';
      change: ExternalUserChange;
      definitions: Definitions;
      /** Set for an ephemeral user: how long it is kept from this session on. */
      ephemeralTtlSeconds: number | undefined;
    }
  | { kind: 'internal'; username: string };

export interface SessionRequest {
  deploymentId: number;
  embedTenantName: string | undefined;
  creatorMode: boolean;
  securityContext: Record<string, unknown> | null;
  /** Tri-state (2.10): undefined inherits the account-wide setting. */
  showDashboardChat: boolean | undefined;
  /** Sorted, without repeats; empty when none were sent. */
  roles: string[];
  publicDashboardId: string | null;
  embedTheme: EmbedThemeOverrides | null;
  user: SessionUser;
}

/**
 * The rules of 2.4–2.10 that need no store, in the order a caller would fix them. Everything that
 * needs the store (deployment, tenant flag, internal user, names) is the service's.
 */
export function parseSessionRequest(raw: GenerateSessionInput): SessionRequest {
  const input = withoutNulls(raw);
  const { externalId, internalId } = input;
  if (externalId !== undefined && internalId !== undefined) throw badRequest('Send exactly one of externalId and internalId, not both');
  if (externalId === undefined && internalId === undefined) throw badRequest('Send exactly one of externalId and internalId');
  const common = {
    deploymentId: input.deploymentId,
    embedTenantName: input.embedTenantName,
    creatorMode: input.creatorMode === true,
    securityContext: input.securityContext ?? null,
    showDashboardChat: input.settings?.showDashboardChat,
    roles: [...new Set(input.roles ?? [])].sort(),
    publicDashboardId: input.publicDashboardId ?? null,
    embedTheme: input.embedTheme ?? null,
  };

  if (internalId !== undefined) {
    const refused = EXTERNAL_ONLY.filter((field) => input[field] !== undefined);
    if (refused.length > 0) {
      throw badRequest(`${refused.join(', ')} cannot be sent with internalId: the internal user's own permissions apply`);
    }
    if (internalId.trim() === '') throw badRequest('internalId must not be empty');
    return { ...common, user: { kind: 'internal', username: internalId.trim() } };
  }

  for (const field of DEFINITIONS) {
    if (input[field] === undefined) continue;
    if (input.creatorMode !== true) throw badRequest(`${field} requires creatorMode: true`);
    if (input.embedTenantName === undefined) throw badRequest(`${field} requires an embedTenantName`);
  }
  if (input.ephemeralTtlSeconds !== undefined && input.isEphemeral !== true) {
    throw badRequest('ephemeralTtlSeconds requires isEphemeral: true');
  }
  if (input.roles?.some((role) => role.trim() === '')) throw badRequest('roles must not contain an empty name');
  if (input.userAttributes)
    assertNoDuplicates(
      input.userAttributes.map((a) => a.name),
      'userAttributes',
    );
  if (input.userAttributeDefinitions)
    assertNoDuplicates(
      input.userAttributeDefinitions.map((a) => a.name),
      'userAttributeDefinitions',
    );
  if (input.groupDefinitions)
    assertNoDuplicates(
      input.groupDefinitions.map((g) => g.name),
      'groupDefinitions',
    );

  const catalog = common.creatorMode ? 'tenant' : 'account';
  const profile = input.userProfile ?? {};
  // An item without `value` clears it, as `null` does (2.6).
  const values = input.userAttributes?.map(({ name, value }) => ({ name, value: value ?? null }));
  const change: ExternalUserChange = {
    externalId: normaliseExternalId(externalId!),
    profile: {
      email: input.email === undefined ? undefined : checkEmail(input.email),
      displayName: profile.displayName,
      picture: profile.picture === undefined ? undefined : checkPicture(profile.picture),
    },
    groups: input.groups === undefined ? {} : { [catalog]: input.groups },
    values: values === undefined ? {} : { [catalog]: values },
  };
  return {
    ...common,
    user: {
      kind: 'external',
      change,
      definitions: { groupDefinitions: input.groupDefinitions, userAttributeDefinitions: input.userAttributeDefinitions },
      ephemeralTtlSeconds: input.isEphemeral === true ? (input.ephemeralTtlSeconds ?? TOKEN_LIFETIME_SECONDS) : undefined,
    },
  };
}
