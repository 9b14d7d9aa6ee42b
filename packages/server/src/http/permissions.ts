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
  'PlaygroundRead',
  'SchemaRead',
  'SchemaUpdate',
  'SchemaUpdateDevBranches',
  'APMRead',
  'PreAggregationBuild',
  'AlertsCreate',
  'AlertsRead',
  'AlertsUpdate',
  'AlertsDelete',
  'AuditLogManage',
  'BillingRead',
  'SqlRunnerRead',
  'DataAssetsRead',
  'DataAssetsManage',
  'CubeNetworkConnect',
  'ReportRead',
  'ReportEdit',
  'ReportManage',
  'WorkbookRead',
  'WorkbookEdit',
  'WorkbookManage',
  'ChatThreadRead',
  'AgentManage',
  'AgentRead',
  'AgentSpaceManage',
  'AgentAdmin',
  'DeploymentAgentRead',
  'OAuthIntegrationsManage',
  'OAuthIntegrationsIssueTokens',
  'AIBIDevelop',
  'AIBIExplore',
  'AIBIView',
  'ChartPalettesManage',
  'DashboardThemesManage',
  'AIBIDeveloper',
  'AIBIUser',
  'AIBIViewer',
  'EmbedDeploymentRead',
  'EmbedDashboardRead',
  'FolderRead',
  'FolderEdit',
  'FolderManage',
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
    "Change the account's directory and settings: new users and users' names, groups, user attributes and values, tenant settings, embed tenants.",
  UserAccessManage:
    'Change what a user reaches and who signs in as them: role, active state, e-mail, password, invites, deletion. Needs a credential for every deployment.',
  ApiKeysManage: 'Create, list and revoke API keys, never one that reaches more than the calling credential.',
  ScimTokensManage: 'Create, list and revoke SCIM tokens. Needs a credential for every deployment.',
  PoliciesManage:
    "Change the resource policies of users and groups (what they may do on the account and on each deployment), never beyond the caller's own. Needs a credential for every deployment.",
  ScimProvision: 'Provision users and groups over SCIM 2.0 (SCIM tokens only).',
  EmbedSessionsManage: 'Mint embed sessions and audit the sessions minted.',
  DataApiQuery: 'Query the data API of one deployment (data API tokens and embed tokens only).',
} as const satisfies Record<string, string>;

export type ReferenceAction = (typeof REFERENCE_ACTIONS)[number];
export type PlinthAction = keyof typeof PLINTH_ACTIONS;
export type Permission = ReferenceAction | PlinthAction;

/** Permissions that reach the whole account, so a key limited to deployments never holds them. */
export const ACCOUNT_WIDE: ReadonlySet<Permission> = new Set<Permission>(['UserAccessManage', 'ScimTokensManage', 'PoliciesManage']);

/**
 * A member reads deployments and their models; workspace content (folders, reports, workbooks) is
 * not in the role: it is private to its creator until a resource policy shares it (see
 * resource-policies/content-access.ts), so what a member sees is decided by policies.
 */
const MEMBER: readonly Permission[] = [
  'AccountRead',
  'DeploymentRead',
  'SchemaRead',
  'PlaygroundRead',
  'AgentRead',
  'DeploymentAgentRead',
  'OAuthIntegrationsIssueTokens',
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
  'PoliciesManage',
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

/**
 * The reference's two umbrella actions: a resource policy may name them, and they stand for the
 * actions below them (see IMPLIES). They are never required by an operation.
 */
export const UMBRELLA_ACTIONS = ['All', 'DeploymentsManage'] as const;
export type UmbrellaAction = (typeof UMBRELLA_ACTIONS)[number];

/** What a resource policy may name: the reference's actions Plinth knows, umbrellas included. */
export type PolicyAction = ReferenceAction | UmbrellaAction;
export const POLICY_ACTIONS: readonly PolicyAction[] = [...UMBRELLA_ACTIONS, ...REFERENCE_ACTIONS];

/**
 * The fixed implication table: holding the key holds every action of its value too (and what
 * those imply). Resource policies and API keys' permissions are read through it, so a policy of
 * `SchemaUpdate` lets its holder read the schema it may change.
 */
const IMPLIES: Partial<Record<PolicyAction, readonly PolicyAction[]>> = {
  All: [...REFERENCE_ACTIONS, 'DeploymentsManage'],
  DeploymentsManage: ['DeploymentCreate', 'DeploymentRead', 'DeploymentUpdate', 'DeploymentDelete'],
  DeploymentUpdate: ['DeploymentRead'],
  DeploymentDelete: ['DeploymentRead'],
  SchemaUpdate: ['SchemaRead'],
  SchemaUpdateDevBranches: ['SchemaRead'],
  PreAggregationBuild: ['DeploymentRead'],
  ReportManage: ['ReportEdit'],
  ReportEdit: ['ReportRead'],
  WorkbookManage: ['WorkbookEdit'],
  WorkbookEdit: ['WorkbookRead'],
  // A folder's action reaches its content: sharing a folder shares what is in it (content-access.ts).
  FolderManage: ['FolderEdit', 'ReportManage', 'WorkbookManage'],
  FolderEdit: ['FolderRead', 'ReportEdit', 'WorkbookEdit'],
  FolderRead: ['ReportRead', 'WorkbookRead'],
  AgentAdmin: ['AgentManage', 'AgentSpaceManage', 'DeploymentAgentRead'],
  AgentManage: ['AgentRead'],
  DataAssetsManage: ['DataAssetsRead'],
  AlertsUpdate: ['AlertsRead'],
  AlertsCreate: ['AlertsRead'],
  AlertsDelete: ['AlertsRead'],
  AIBIDeveloper: ['AIBIDevelop', 'AIBIExplore', 'AIBIView', 'AIBIUser', 'AIBIViewer'],
  AIBIUser: ['AIBIExplore', 'AIBIView', 'AIBIViewer'],
  AIBIViewer: ['AIBIView'],
  AIBIDevelop: ['AIBIExplore'],
  AIBIExplore: ['AIBIView'],
};

/** An action and everything it implies, as permissions an operation may require. */
export function implied(actions: Iterable<string>): Set<Permission> {
  const out = new Set<Permission>();
  const visit = (action: string) => {
    if (out.has(action as Permission)) return;
    if (!(UMBRELLA_ACTIONS as readonly string[]).includes(action)) out.add(action as Permission);
    for (const next of IMPLIES[action as PolicyAction] ?? []) visit(next);
  };
  for (const action of actions) visit(action);
  return out;
}

/**
 * The closed list an API key's `permissions` may name: the deployment actions of the reference
 * (umbrellas included) and the Plinth actions that make sense within deployments. What reaches
 * the whole account (ACCOUNT_WIDE) and what only other kinds of credential hold are not offered:
 * a key with permissions is always limited to deployments.
 */
export const KEY_PERMISSIONS: readonly string[] = [...POLICY_ACTIONS, 'AccountRead', 'ApiKeysManage', 'EmbedSessionsManage'];
