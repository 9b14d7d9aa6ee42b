import { ACCOUNT, authorize, WITHIN_SCOPE, type Resource } from './authorize.js';
import type { ApiError } from './errors.js';
import type { Permission } from './permissions.js';
import { PLATFORM_CREDENTIALS, type CredentialKind, type Principal } from './principal.js';
import type { Role } from '../store/schema.js';

/**
 * Where a route's resource comes from, and with it whether the route is account-wide. Every route
 * names one (`requires` has no default), so none is open to a key limited to deployments by omission.
 */
export type ResourceSource =
  /**
   * Account-wide: the account's directory, settings, integrations and account-level credentials,
   * and creating deployments. A credential limited to deployments is refused.
   */
  | 'account'
  /**
   * On the account, within the caller's reach: reads of what the account shares with every
   * deployment, lists filtered by the caller's scope, the caller's own things, and operations whose
   * service checks the stored resource. Open to a key limited to deployments, except with a
   * permission that is always account-wide (declared `accountWide` by its module, see permissions.ts).
   */
  | 'withinScope'
  /**
   * A deployment named by a path parameter or a body field (validated as an integer before this
   * runs): a key limited to deployments reaches only its own.
   */
  | { deploymentIdIn: 'params' | 'body'; name: string }
  /** A credential to create, by the `role` (member by default) and `deploymentIds` (null: every one) of the body. */
  | 'requestedCredential';

const RESOURCE_SOURCES = ['account', 'withinScope', 'requestedCredential'] as const;

/** Whether a declaration names a resource source; the auth plugin refuses a route that does not. */
export function isResourceSource(source: unknown): source is ResourceSource {
  if (typeof source === 'string') return (RESOURCE_SOURCES as readonly string[]).includes(source);
  if (typeof source !== 'object' || source === null) return false;
  const { deploymentIdIn, name } = source as Record<string, unknown>;
  return (deploymentIdIn === 'params' || deploymentIdIn === 'body') && typeof name === 'string' && name !== '';
}

/**
 * What a route requires of its caller, declared in `config.auth` next to its schema. The auth
 * plugin enforces it before the handler runs and the spec states it, so neither a handler nor a
 * service checks roles or scopes by hand.
 */
export interface Requirement {
  /** Credential kinds the route accepts; each needs a registered verifier or the app does not start. */
  kinds: readonly CredentialKind[];
  permission: Permission;
  resource: ResourceSource;
  /** What the operation does, completing a refusal's "cannot …" (e.g. 'manage SCIM tokens'). */
  doing?: string;
  /**
   * Another permission when the body asks for more than the usual: sets any of `bodySets` (a
   * user's role), has every value of `bodyIs` (a merge whose `target` is the deploy branch), or
   * leaves out any of `bodyOmits` (a data API token for production rather than for a dev branch).
   */
  stricterWhen?: Stricter;
  /** A check the service adds once it has read the store, stated in the spec (e.g. a commit whose target is the deploy branch). */
  alsoDemands?: string;
}

export interface Stricter {
  bodySets?: readonly string[];
  bodyIs?: Readonly<Record<string, string | number | boolean>>;
  bodyOmits?: readonly string[];
  permission: Permission;
  doing: string;
}

/** Whether a request's body calls for the stricter permission. */
export function stricterApplies(stricter: Stricter, body: unknown): boolean {
  const fields = (body ?? {}) as Record<string, unknown>;
  if (stricter.bodySets?.some((field) => fields[field] !== undefined)) return true;
  if (stricter.bodyOmits?.some((field) => fields[field] === undefined)) return true;
  return stricter.bodyIs !== undefined && Object.entries(stricter.bodyIs).every(([field, value]) => fields[field] === value);
}

/** What a route declares about its callers; it also generates the route's `security` in the spec. */
export type RouteAuth = 'public' | Requirement;

/** What a route states beside its permission: always its resource, the rest when it differs from the usual. */
export type RequirementOptions = Pick<Requirement, 'resource'> & Partial<Omit<Requirement, 'permission' | 'resource'>>;

/** A requirement with the platform's credentials (API keys and access tokens) unless told otherwise. */
export function requires(permission: Permission, options: RequirementOptions): Requirement {
  return { kinds: PLATFORM_CREDENTIALS, ...options, permission };
}

export const deploymentParam = (name = 'deploymentId'): ResourceSource => ({ deploymentIdIn: 'params', name });
export const deploymentField = (name = 'deploymentId'): ResourceSource => ({ deploymentIdIn: 'body', name });

/** What a requirement reads of a request besides its principal, whatever carried it. */
export interface OperationInput {
  readonly params?: unknown;
  readonly body?: unknown;
}

/** A route's requirement, compiled once at registration into the check its requests run. */
export type Check = (principal: Principal, request: OperationInput) => ApiError | null;

export function compileRequirement(requirement: Requirement): Check {
  const { permission, doing } = requirement;
  const resolve = resolverOf(requirement.resource);
  const stricter = requirement.stricterWhen;
  if (!stricter) return (principal, request) => authorize(principal, permission, resolve(request), doing);
  return (principal, request) => {
    return stricterApplies(stricter, request.body)
      ? authorize(principal, stricter.permission, resolve(request), stricter.doing)
      : authorize(principal, permission, resolve(request), doing);
  };
}

function resolverOf(source: ResourceSource): (request: OperationInput) => Resource {
  if (source === 'account') return () => ACCOUNT;
  if (source === 'withinScope') return () => WITHIN_SCOPE;
  if (source === 'requestedCredential') {
    return (request) => {
      const body = request.body as { role?: Role; deploymentIds?: number[] | null; permissions?: string[] } | undefined;
      return {
        type: 'credential',
        role: body?.role ?? 'member',
        deploymentIds: body?.deploymentIds ?? null,
        permissions: body?.permissions ?? null,
      };
    };
  }
  const { deploymentIdIn, name } = source;
  return (request) => {
    const id = (request[deploymentIdIn] as Record<string, unknown> | null | undefined)?.[name];
    // The schema requires the id; a route whose id is optional lets its service choose one of the
    // caller's deployments when it is left out, and checks that one.
    return typeof id === 'number' ? { type: 'deployment', id } : WITHIN_SCOPE;
  };
}

/** The sentence the spec gives an operation about its permission. */
export function describeRequirement(requirement: Requirement): string {
  const on = describeSource(requirement.resource);
  const stricter = requirement.stricterWhen;
  const also = stricter ? `; \`${stricter.permission}\` when ${describeStricter(stricter)}` : '';
  const more = requirement.alsoDemands ? ` ${requirement.alsoDemands}` : '';
  return `Requires the \`${requirement.permission}\` permission ${on}${also}.${more}`;
}

function describeSource(source: ResourceSource): string {
  if (source === 'account') return 'on the account (account-wide: a key limited to deployments is refused)';
  if (source === 'withinScope') return 'on the account';
  if (source === 'requestedCredential') {
    return 'and a credential reaching at least the role (or holding each of the `permissions`) and the deployments of the key it creates';
  }
  return `on the deployment named by ${source.deploymentIdIn === 'params' ? 'the path parameter' : 'the body field'} \`${source.name}\``;
}

function describeStricter(stricter: Stricter): string {
  const quoted = (fields: readonly string[]) => fields.map((f) => `\`${f}\``).join(' or ');
  const parts: string[] = [];
  if (stricter.bodySets) parts.push(`the body sets ${quoted(stricter.bodySets)}`);
  if (stricter.bodyOmits) parts.push(`the body leaves out ${quoted(stricter.bodyOmits)}`);
  if (stricter.bodyIs) {
    parts.push(
      `the body has ${Object.entries(stricter.bodyIs)
        .map(([f, v]) => `\`${f}\` = \`${String(v)}\``)
        .join(' and ')}`,
    );
  }
  return parts.join(', or ');
}
