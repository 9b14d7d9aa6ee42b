import type { CredentialKind } from './principal.js';
import { loadedModules } from '../modules/index.js';
import type { PermissionDeclaration, PlinthActions, PlinthModule } from '../modules/module.js';
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

export type ReferenceAction = (typeof REFERENCE_ACTIONS)[number];
/** Plinth's own actions, for operations the reference's policies have no action for: each module declares its own. */
export type PlinthAction = keyof PlinthActions;
export type Permission = ReferenceAction | PlinthAction;
type NonUserKind = Exclude<CredentialKind, 'apiKey' | 'accessToken'>;

/**
 * A member reads deployments and their models; workspace content (folders, reports, workbooks) is
 * not in the role: it is private to its creator until a resource policy shares it (see
 * resource-policies/content-access.ts), so what a member sees is decided by policies. An admin
 * holds every reference action. Plinth's actions say themselves which roles hold them.
 */
const MEMBER_REFERENCE_ACTIONS: readonly ReferenceAction[] = [
  'DeploymentRead',
  'SchemaRead',
  'PlaygroundRead',
  'AgentRead',
  'DeploymentAgentRead',
  'OAuthIntegrationsIssueTokens',
  'EmbedDeploymentRead',
  'EmbedDashboardRead',
];

/** Embed tokens read what is embedded, within their deployment; the other kinds hold Plinth's actions only. */
const KIND_REFERENCE_ACTIONS: Record<NonUserKind, readonly ReferenceAction[]> = {
  scimToken: [],
  embedToken: ['EmbedDeploymentRead', 'EmbedDashboardRead'],
  dataToken: [],
};

/**
 * What a creator-mode embed token holds beside its kind's: it reads its deployment, as a member
 * does, so the workspace operations let it in; what it may do to content is the content access
 * decision's (its embed tenant's content only).
 */
const CREATOR_MODE_REFERENCE_ACTIONS: readonly ReferenceAction[] = ['DeploymentRead'];

/** Who holds what, from the reference's actions and every module's own. */
export interface PermissionCatalog {
  /** Plinth's actions, each with what it allows, in the modules' order. */
  plinthActions: ReadonlyMap<PlinthAction, string>;
  /** Permissions that reach the whole account, so a key limited to deployments never holds them. */
  accountWide: ReadonlySet<Permission>;
  /** What each role of an internal user grants; an API key or access token holds its role's permissions. */
  roles: Record<Role, ReadonlySet<Permission>>;
  /** What credentials that act for no internal user grant. */
  kinds: Record<NonUserKind, ReadonlySet<Permission>>;
  /** What an embed token minted with `creatorMode: true` holds beyond what every embed token does. */
  creatorMode: ReadonlySet<Permission>;
  /**
   * The closed list an API key's `permissions` may name: the deployment actions of the reference
   * (umbrellas included) and the Plinth actions that make sense within deployments. What reaches
   * the whole account and what only other kinds of credential hold are not offered: a key with
   * permissions is always limited to deployments.
   */
  keys: readonly string[];
}

/** The catalog of `modules`; an action declared by two modules is refused, naming both. */
export function buildPermissionCatalog(modules: readonly PlinthModule[]): PermissionCatalog {
  const owners = new Map<string, string>();
  const plinthActions = new Map<PlinthAction, string>();
  const accountWide = new Set<Permission>();
  const roles: Record<Role, Set<Permission>> = { member: new Set(MEMBER_REFERENCE_ACTIONS), admin: new Set(REFERENCE_ACTIONS) };
  const kinds = Object.fromEntries(
    Object.entries(KIND_REFERENCE_ACTIONS).map(([kind, actions]) => [kind, new Set<Permission>(actions)]),
  ) as Record<NonUserKind, Set<Permission>>;
  const keys: string[] = [...POLICY_ACTIONS];
  for (const module of modules) {
    for (const [name, declaration] of Object.entries(module.permissions ?? {}) as [PlinthAction, PermissionDeclaration][]) {
      const owner = owners.get(name) ?? ((REFERENCE_ACTIONS as readonly string[]).includes(name) ? 'the reference' : undefined);
      if (owner) throw new Error(`Permission ${name} is declared by modules/${module.name} and by ${owner}`);
      owners.set(name, `modules/${module.name}`);
      plinthActions.set(name, declaration.description);
      if (declaration.accountWide) accountWide.add(name);
      for (const role of declaration.roles ?? []) roles[role].add(name);
      for (const kind of declaration.kinds ?? []) kinds[kind].add(name);
      if (declaration.keys) keys.push(name);
    }
  }
  return { plinthActions, accountWide, roles, kinds, creatorMode: new Set<Permission>(CREATOR_MODE_REFERENCE_ACTIONS), keys };
}

let catalog: PermissionCatalog | undefined;

/** The server's catalog, built from its modules once they are loaded (every request is served after). */
export function permissionCatalog(): PermissionCatalog {
  return (catalog ??= buildPermissionCatalog(loadedModules()));
}

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
