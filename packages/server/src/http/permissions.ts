import type { CredentialKind } from './principal.js';
import type { Role } from '../store/schema.js';

/**
 * Actions of the reference's resource policies (`InheritedUserPolicyDtoAction`, tag Resource
 * Policies of ../shared/reference/cube-cloud/api.yaml) that Plinth's operations need now or with
 * the analytics half. The names are the reference's, so a resource policy written for it means
 * the same here.
 */
export const REFERENCE_ACTIONS = [
  'DeploymentCreate',
  'DeploymentRead',
  'DeploymentUpdate',
  'DeploymentDelete',
  'SchemaRead',
  'SchemaUpdate',
  'SchemaUpdateDevBranches',
  'PlaygroundRead',
  'PreAggregationBuild',
  'ReportRead',
  'ReportEdit',
  'ReportManage',
  'WorkbookRead',
  'WorkbookEdit',
  'WorkbookManage',
  'FolderRead',
  'FolderEdit',
  'FolderManage',
  'OAuthIntegrationsManage',
  'EmbedDeploymentRead',
  'EmbedDashboardRead',
] as const;

/**
 * Plinth's own actions, for operations the reference's policies have no action for (the
 * account's directory, its credentials and embedding's administration). This is the one place
 * they are defined; each says which operations need it.
 */
export const PLINTH_ACTIONS = {
  AccountRead:
    'Read the account: its users, groups, user attributes and values, tenant settings, OAuth integrations, and the calling credential.',
  AccountManage:
    "Change the account's directory and settings: users' names and e-mails, groups, user attributes and values, tenant settings, embed tenants.",
  UserAccessManage: 'Change what a user reaches: role, active state, password, invites, deletion. Needs a credential for every deployment.',
  ApiKeysManage: 'Create, list and revoke API keys, never one that reaches more than the calling credential.',
  ScimTokensManage: 'Create, list and revoke SCIM tokens. Needs a credential for every deployment.',
  ScimProvision: 'Provision users and groups over SCIM 2.0 (SCIM tokens only).',
  EmbedSessionsManage: 'Mint embed sessions and audit the sessions minted.',
  DataApiQuery: 'Query the data API of one deployment (data API tokens and embed tokens only).',
} as const satisfies Record<string, string>;

export type ReferenceAction = (typeof REFERENCE_ACTIONS)[number];
export type PlinthAction = keyof typeof PLINTH_ACTIONS;
export type Permission = ReferenceAction | PlinthAction;

/** Permissions that reach the whole account, so a key limited to deployments never holds them. */
export const ACCOUNT_WIDE: ReadonlySet<Permission> = new Set<Permission>(['UserAccessManage', 'ScimTokensManage']);

const MEMBER: readonly Permission[] = [
  'AccountRead',
  'DeploymentRead',
  'SchemaRead',
  'PlaygroundRead',
  'ReportRead',
  'WorkbookRead',
  'FolderRead',
  'EmbedDeploymentRead',
  'EmbedDashboardRead',
];
const ADMIN: readonly Permission[] = [
  ...REFERENCE_ACTIONS,
  'AccountRead',
  'AccountManage',
  'UserAccessManage',
  'ApiKeysManage',
  'ScimTokensManage',
  'EmbedSessionsManage',
];

/** What each role of an internal user grants; an API key or access token holds its role's permissions. */
export const ROLE_PERMISSIONS: Record<Role, ReadonlySet<Permission>> = {
  member: new Set(MEMBER),
  admin: new Set(ADMIN),
};

/**
 * What credentials that act for no internal user grant. SCIM tokens provision and nothing else;
 * embed tokens read what is embedded, within their deployment; data API tokens query the data
 * API of their deployment, as embed tokens also may.
 */
export const KIND_PERMISSIONS: Record<Exclude<CredentialKind, 'apiKey' | 'accessToken'>, ReadonlySet<Permission>> = {
  scimToken: new Set<Permission>(['ScimProvision']),
  embedToken: new Set<Permission>(['EmbedDeploymentRead', 'EmbedDashboardRead', 'DataApiQuery']),
  dataToken: new Set<Permission>(['DataApiQuery']),
};
