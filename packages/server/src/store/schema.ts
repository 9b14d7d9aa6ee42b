import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/** Kysely's view of the metadata store. Modules that add tables add their interfaces here. */
export interface Database {
  instance_secret: InstanceSecretTable;
  account: AccountTable;
  tenant_settings: TenantSettingsTable;
  app_user: AppUserTable;
  api_key: ApiKeyTable;
  access_token: AccessTokenTable;
  scim_token: ScimTokenTable;
  user_group: UserGroupTable;
  group_member: GroupMemberTable;
  user_attribute: UserAttributeTable;
  user_attribute_value: UserAttributeValueTable;
  deployment: DeploymentTable;
  oauth_integration: OAuthIntegrationTable;
  // CLI login and telemetry (migration 0005).
  device_authorization: DeviceAuthorizationTable;
  login_session: LoginSessionTable;
  login_token: LoginTokenTable;
  user_invite: UserInviteTable;
  telemetry_event: TelemetryEventTable;
  // Rate limits shared by every replica (migration 0011).
  rate_limit: RateLimitTable;
  // Signed embedding (migration 0003).
  embed_account: EmbedAccountTable;
  embed_tenant: EmbedTenantTable;
  embed_group: EmbedGroupTable;
  embed_user_attribute: EmbedUserAttributeTable;
  external_user: ExternalUserTable;
  external_user_group: ExternalUserGroupTable;
  external_user_attribute_value: ExternalUserAttributeValueTable;
  external_user_tenant_group: ExternalUserTenantGroupTable;
  external_user_tenant_attribute_value: ExternalUserTenantAttributeValueTable;
  embed_session: EmbedSessionTable;
  // Background jobs (migration 0015).
  job: JobTable;
  // Cron schedules of background work (migration 0033).
  job_schedule: JobScheduleTable;
  // Data models, branches, uploads and builds (migration 0017).
  model_blob: ModelBlobTable;
  model_tree: ModelTreeTable;
  model_commit: ModelCommitTable;
  model_branch: ModelBranchTable;
  dev_mode_session: DevModeSessionTable;
  model_upload: ModelUploadTable;
  model_upload_file: ModelUploadFileTable;
  model_build: ModelBuildTable;
  build_log: BuildLogTable;
  // Data API secrets and environment tokens (migration 0018).
  deployment_api_secret: DeploymentApiSecretTable;
  deployment_environment_token: DeploymentEnvironmentTokenTable;
  // A deployment's environment variables (migration 0020).
  deployment_variable: DeploymentVariableTable;
  // Engine versions an account's deployments have run (migration 0021).
  engine_version_run: EngineVersionRunTable;
  // Resource policies of users and groups (migration 0023).
  resource_policy: ResourcePolicyTable;
  // dbt sync (migration 0024).
  dbt_integration: DbtIntegrationTable;
  dbt_sync: DbtSyncTable;
  // CI gate runs and their leases (migration 0026).
  ci_run: CiRunTable;
  // A deployment's GitHub connection (migration 0025).
  github_connection: GithubConnectionTable;
  // Workspace content: folders, workbooks, reports and dashboards (migration 0027).
  folder: FolderTable;
  workbook: WorkbookTable;
  report: ReportTable;
  dashboard: DashboardTable;
  dashboard_version: DashboardVersionTable;
  // Account administration: the account's embed and app themes (migration 0028).
  embed_theme: EmbedThemeTable;
  app_theme: AppThemeTable;
  // OIDC token configs and user OAuth tokens (migration 0029).
  oidc_token_config: OidcTokenConfigTable;
  user_oauth_token: UserOAuthTokenTable;
  // Agents, their LLM endpoints and AI settings (migration 0030).
  agent_llm: AgentLlmTable;
  agent: AgentTable;
  ai_engineer_settings: AiEngineerSettingsTable;
  agent_region_choice: AgentRegionChoiceTable;
}

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** jsonb columns: written as a JSON string (both drivers), read back parsed. */
export type Json<T = unknown> = ColumnType<T, string, string>;

export interface InstanceSecretTable {
  name: string;
  value: string;
  created_at: CreatedAt;
}

export interface AccountTable {
  id: Generated<number>;
  name: string;
  custom_domain: string | null;
  created_at: CreatedAt;
  /** Set by `plinth-server accounts disable` (migration 0010): every request to the account is refused. */
  disabled_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}
export type AccountRow = Selectable<AccountTable>;

export interface TenantSettingsTable {
  account_id: number;
  use_creator_mode: Generated<boolean>;
  bulk_action_limit: Generated<number>;
  show_dashboard_chat: Generated<boolean>;
  embedding_enabled: Generated<boolean>;
  updated_at: UpdatedAt;
}

export type Role = 'admin' | 'member';

export interface AppUserTable {
  id: Generated<number>;
  account_id: number;
  uuid: Generated<string>;
  /** The sign-in address; a provisioned user may have none (migration 0012). */
  email: string | null;
  /** SCIM userName when a SCIM client set it; null means the e-mail is the userName (0012). */
  user_name: string | null;
  display_name: string | null;
  given_name: string | null;
  family_name: string | null;
  external_id: string | null;
  role: Role;
  active: Generated<boolean>;
  password_hash: string | null;
  /** Addresses a SCIM client sent (migration 0006); null when none were, see StoredEmail. */
  emails: ColumnType<StoredEmail[] | null, string | null | undefined, string | null>;
  /** The rest of the SCIM core User and its enterprise extension, as sent (migration 0012). */
  scim_attributes: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  /** A SCIM delete keeps the row, deactivated, with who and why (migration 0012). */
  deleted_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  deleted_by: ColumnType<string | null, string | null | undefined, string | null>;
  deletion_reason: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the user last signed in, to the minute (migration 0028). */
  last_login_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  version: Generated<number>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
export interface StoredEmail {
  value: string;
  type?: string;
  primary?: boolean;
  display?: string;
}
export type AppUserRow = Selectable<AppUserTable>;
export type NewAppUser = Insertable<AppUserTable>;
export type AppUserUpdate = Updateable<AppUserTable>;

export interface ApiKeyTable {
  id: Generated<number>;
  account_id: number;
  user_id: number;
  name: string;
  key_hash: string;
  key_prefix: string;
  role: Role;
  deployment_ids: number[] | null;
  created_at: CreatedAt;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
  /** Why it was revoked, when not by its owner (migration 0012). */
  revoked_reason: ColumnType<string | null, string | null | undefined, string | null>;
  /** The key's own permissions, replacing its role's (migration 0023); null for a key of a role. */
  permissions: ColumnType<string[] | null, string[] | null | undefined, string[] | null>;
}
export type ApiKeyRow = Selectable<ApiKeyTable>;

export interface AccessTokenTable {
  id: Generated<number>;
  account_id: number;
  user_id: number;
  token_hash: string;
  refresh_token_hash: string | null;
  expires_at: Timestamp;
  refresh_expires_at: Timestamp | null;
  created_at: CreatedAt;
  revoked_at: Timestamp | null;
  revoked_reason: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ScimTokenTable {
  id: Generated<number>;
  account_id: number;
  created_by_user_id: number | null;
  name: string;
  token_hash: string;
  token_prefix: string;
  created_at: CreatedAt;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
}
export type ScimTokenRow = Selectable<ScimTokenTable>;

export interface UserGroupTable {
  id: Generated<number>;
  account_id: number;
  uuid: Generated<string>;
  name: string;
  description: string | null;
  external_id: string | null;
  version: Generated<number>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
export type UserGroupRow = Selectable<UserGroupTable>;

export interface GroupMemberTable {
  group_id: number;
  user_id: number;
  account_id: number;
  created_at: CreatedAt;
}

export type AttributeType = 'string' | 'number' | 'string_array' | 'number_array';

export interface UserAttributeTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  type: AttributeType;
  display_name: string | null;
  default_value: string | null;
  description: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
export type UserAttributeRow = Selectable<UserAttributeTable>;

export interface UserAttributeValueTable {
  attribute_id: number;
  user_id: number;
  account_id: number;
  value: Json;
  updated_at: UpdatedAt;
}

export interface DeploymentTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  region: string | null;
  creation_step: Generated<string>;
  deploy_mode: Generated<string | null>;
  creation_method: Generated<string | null>;
  release_channel: Generated<string | null>;
  release_channel_version: Generated<string | null>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
export type DeploymentRow = Selectable<DeploymentTable>;

export interface EngineVersionRunTable {
  account_id: number;
  version: string;
  channel: string;
  deployment_id: number | null;
  first_run_at: CreatedAt;
  last_run_at: UpdatedAt;
}

export interface OAuthIntegrationTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  type: string;
  auth_url: string;
  token_url: string;
  client_id: string;
  client_secret_encrypted: string | null;
  redirect_uri: string;
  config: Json<Record<string, unknown> | null> | null;
  scopes: Json<unknown[] | null> | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
export type OAuthIntegrationRow = Selectable<OAuthIntegrationTable>;

// Signed embedding (migration 0003).
export interface EmbedAccountTable {
  account_id: number;
  signing_secret_sealed: string | null;
  external_user_count: Generated<number>;
}

export interface EmbedTenantTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  created_at: CreatedAt;
}
export type EmbedTenantRow = Selectable<EmbedTenantTable>;

export interface EmbedGroupTable {
  id: Generated<number>;
  account_id: number;
  embed_tenant_id: number;
  name: string;
  description: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
export type EmbedGroupRow = Selectable<EmbedGroupTable>;

export interface EmbedUserAttributeTable {
  id: Generated<number>;
  account_id: number;
  embed_tenant_id: number;
  name: string;
  type: AttributeType;
  display_name: string | null;
  default_value: string | null;
  description: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
export type EmbedUserAttributeRow = Selectable<EmbedUserAttributeTable>;

export interface ExternalUserTable {
  id: Generated<number>;
  account_id: number;
  embed_tenant_id: number;
  external_id: string;
  email: string | null;
  display_name: string | null;
  picture: string | null;
  /** Ephemeral users only: gone after this moment, and never counted toward the limit. */
  expires_at: Generated<Date | null>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
export type ExternalUserRow = Selectable<ExternalUserTable>;

export interface ExternalUserGroupTable {
  external_user_id: number;
  group_id: number;
  account_id: number;
}

export interface ExternalUserAttributeValueTable {
  external_user_id: number;
  attribute_id: number;
  account_id: number;
  value: Json;
}

export interface ExternalUserTenantGroupTable {
  external_user_id: number;
  embed_group_id: number;
  account_id: number;
}

export interface ExternalUserTenantAttributeValueTable {
  external_user_id: number;
  embed_attribute_id: number;
  account_id: number;
  value: Json;
}

export interface EmbedSessionTable {
  id: Generated<number>;
  account_id: number;
  session_hash: string;
  api_key_id: number | null;
  deployment_id: number;
  embed_tenant_id: number;
  external_user_id: number | null;
  internal_user_id: number | null;
  /** The external user's externalId or the internal user's e-mail, kept for the audit list. */
  user_ref: string;
  creator_mode: boolean;
  show_dashboard_chat: boolean | null;
  claims: Json<Record<string, unknown>>;
  created_at: CreatedAt;
  exchange_by: Timestamp;
  exchanged_at: Timestamp | null;
  revoked_at: Timestamp | null;
}
export type EmbedSessionRow = Selectable<EmbedSessionTable>;

// CLI login and telemetry (migration 0005).
export type DeviceAuthorizationStatus = 'pending' | 'approved' | 'denied' | 'consumed';
export interface DeviceAuthorizationTable {
  id: Generated<number>;
  account_id: number;
  device_code_hash: string;
  user_code: string;
  client_name: string | null;
  status: Generated<DeviceAuthorizationStatus>;
  user_id: number | null;
  interval_s: number;
  last_polled_at: Timestamp | null;
  expires_at: Timestamp;
  created_at: CreatedAt;
}
export type DeviceAuthorizationRow = Selectable<DeviceAuthorizationTable>;

export interface LoginSessionTable {
  id: Generated<number>;
  account_id: number;
  user_id: number;
  client_name: string | null;
  created_at: CreatedAt;
  revoked_at: Timestamp | null;
}

export interface LoginTokenTable {
  access_token_id: number;
  session_id: number;
}

export interface UserInviteTable {
  id: Generated<number>;
  account_id: number;
  user_id: number;
  token_hash: string;
  created_by_user_id: number | null;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface TelemetryEventTable {
  id: Generated<number>;
  account_id: number;
  command: string;
  success: boolean;
  version: string;
  platform: string;
  machine_id: string;
  created_at: CreatedAt;
}

// Rate limits (migration 0011).
export interface RateLimitTable {
  bucket: string;
  hits: number;
  window_start: Timestamp;
  last_hit_at: Timestamp;
}

// Background jobs (migration 0015).
export type JobState = 'queued' | 'running' | 'succeeded' | 'dead' | 'cancelled';
export interface JobTable {
  id: Generated<number>;
  kind: string;
  payload: Json;
  account_id: number | null;
  dedupe_key: string | null;
  state: Generated<JobState>;
  attempts: Generated<number>;
  max_attempts: number;
  run_at: Timestamp;
  lease_until: Timestamp | null;
  claimed_by: string | null;
  cancel_requested: Generated<boolean>;
  last_error: string | null;
  result: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
  finished_at: Timestamp | null;
}
export type JobRow = Selectable<JobTable>;

// Cron schedules of background work (migration 0033; jobs/schedules.ts).
export interface JobScheduleTable {
  name: string;
  cron: string;
  timezone: string;
  next_run_at: Timestamp;
  last_run_at: Timestamp | null;
  created_at: CreatedAt;
}

// Data models (migration 0017; see its comment for the object model).
export interface ModelBlobTable {
  account_id: number;
  /** SHA-256 of the content's UTF-8 bytes, lower-case hex. */
  hash: string;
  size: number;
  content: string;
  created_at: CreatedAt;
}
/** A file tree: path (relative to the model root, e.g. `model/cubes/orders.yml`) → blob hash. */
export type TreeEntries = Record<string, string>;
export interface ModelTreeTable {
  account_id: number;
  hash: string;
  entries: Json<TreeEntries>;
  file_count: number;
  total_size: ColumnType<number, number, number>;
}
export type AuthorKind = 'apiKey' | 'accessToken' | 'system';
export interface ModelCommitTable {
  id: Generated<number>;
  account_id: number;
  deployment_id: number;
  tree_hash: string;
  parent_ids: ColumnType<number[], number[] | undefined, never>;
  author_kind: AuthorKind;
  author_credential_id: number | null;
  author_user_id: number | null;
  message: string;
  created_at: CreatedAt;
}
export type ModelCommitRow = Selectable<ModelCommitTable>;
export type BranchKind = 'shared' | 'dev';
export interface ModelBranchTable {
  id: Generated<number>;
  account_id: number;
  deployment_id: number;
  name: string;
  kind: BranchKind;
  is_default: Generated<boolean>;
  /** A shared branch made by `create-branch --dev-mode`: build status says `dev_mode`, writes are still refused. */
  dev_mode: Generated<boolean>;
  /** Its staging environment is always active (enable-branch), not only while viewed. */
  always_active: Generated<boolean>;
  head_commit_id: number;
  /** Dev branch: the shared branch it was forked from and commits to. Shared branch: the branch it was created from. */
  forked_from: string | null;
  /** Dev branch: the commit of `forked_from` it was forked from or last pulled or committed (the merge base). */
  base_commit_id: number | null;
  /** Dev branch: the credential it belongs to (`credentialKey`); null for shared branches. */
  owner_key: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
export type ModelBranchRow = Selectable<ModelBranchTable>;
export interface DevModeSessionTable {
  account_id: number;
  deployment_id: number;
  credential_key: string;
  branch_name: string;
  created_at: CreatedAt;
}
export type UploadState = 'open' | 'finished' | 'aborted';
export interface ModelUploadTable {
  id: string;
  account_id: number;
  deployment_id: number;
  branch_name: string;
  base_commit_id: number;
  /** Every local file of the deploy: path → SHA-256. */
  manifest: Json<TreeEntries>;
  keep_missing: Generated<boolean>;
  message: string | null;
  credential_key: string;
  state: Generated<UploadState>;
  expires_at: Timestamp;
  created_at: CreatedAt;
}
export type ModelUploadRow = Selectable<ModelUploadTable>;
export interface ModelUploadFileTable {
  upload_id: string;
  path: string;
  hash: string;
}
export type BuildStatus = 'queued' | 'building' | 'built' | 'failed' | 'cancelled';
export interface ModelBuildTable {
  id: Generated<number>;
  account_id: number;
  deployment_id: number;
  branch_name: string;
  commit_id: number;
  status: Generated<BuildStatus>;
  job_id: number | null;
  /** What queued it: deploy, commit, merge, merge-to-default, validate, rebuild, dbt-sync, data-api. */
  trigger: string;
  errors: ColumnType<unknown[] | null, string | null | undefined, string | null>;
  cubes_count: number | null;
  created_at: CreatedAt;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
}
export type ModelBuildRow = Selectable<ModelBuildTable>;
export type LogSource = 'production' | 'dev';
export interface BuildLogTable {
  id: Generated<number>;
  account_id: number;
  deployment_id: number;
  build_id: number | null;
  source: LogSource;
  /** The server process that wrote it (its job worker id). */
  pod: string;
  /** What part wrote it: `builder` for builds (the data API adds its own). */
  container: string;
  level: 'info' | 'warn' | 'error';
  message: string;
  created_at: CreatedAt;
}
export type BuildLogRow = Selectable<BuildLogTable>;

// Data API credentials (migration 0018).
export interface DeploymentApiSecretTable {
  deployment_id: number;
  account_id: number;
  secret_sealed: string;
  created_at: CreatedAt;
}

export interface DeploymentEnvironmentTokenTable {
  id: Generated<number>;
  account_id: number;
  deployment_id: number;
  environment_id: string;
  for_meta_sync: Generated<boolean>;
  security_context: Json<Record<string, unknown>>;
  token_sealed: string;
  created_at: CreatedAt;
  expires_at: Timestamp;
}
export interface DeploymentVariableTable {
  account_id: number;
  deployment_id: number;
  name: string;
  /** The value sealed with the instance's SecretBox. */
  value_sealed: string;
  secret: boolean;
  updated_at: UpdatedAt;
}
export type DeploymentVariableRow = Selectable<DeploymentVariableTable>;

/** What a user or a group may do on a resource (migration 0023): one action per subject and resource. */
export interface ResourcePolicyTable {
  id: Generated<number>;
  account_id: number;
  user_id: number | null;
  group_id: number | null;
  /** The reference's resource type: `Global` or `Deployment` (content types later). */
  resource_type: string;
  /** The resource's id; 0 for Global. */
  resource_id: number;
  action: string;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
// dbt sync (migration 0024).
export interface DbtIntegrationTable {
  deployment_id: number;
  account_id: number;
  /** `owner/repo` with an installation, else a Git URL (without credentials) or a local path, as git understands it. */
  repository: string;
  /** The GitHub App installation whose token clones `repository` (migration 0032). */
  installation_id: number | null;
  /** An https URL's `user:password`, sealed (SecretBox), as JSON `{username, password}`; null without (migration 0032). */
  repository_credentials: string | null;
  /** The dbt project's folder in the repository, '' for its root. */
  folder: string;
  branch: string;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
export type DbtIntegrationRow = Selectable<DbtIntegrationTable>;
export type DbtSyncState = 'queued' | 'running' | 'written' | 'failed' | 'cancelled';
export interface DbtSyncStageRecord {
  name: string;
  status: string;
  startedAt: string | null;
  finishedAt: string | null;
  message: string | null;
  progress: { done: number; total: number } | null;
}
export interface DbtSyncTable {
  id: Generated<number>;
  account_id: number;
  deployment_id: number;
  /** The integration's repository when the sync started; its credentials are the integration's (migration 0032). */
  repository: string;
  /** The installation the sync clones through, when the repository is `owner/repo` (migration 0032). */
  installation_id: number | null;
  folder: string;
  ref: string;
  commit_sha: string | null;
  state: Generated<DbtSyncState>;
  cancel_requested: Generated<boolean>;
  stage: string | null;
  stages: Json<DbtSyncStageRecord[]>;
  branch_name: string | null;
  build_id: number | null;
  error: string | null;
  files: ColumnType<Array<{ path: string; cube: string }>, string | undefined, string>;
  job_id: number | null;
  worker_id: string | null;
  created_at: CreatedAt;
  finished_at: Timestamp | null;
}
export type DbtSyncRow = Selectable<DbtSyncTable>;
export type CiRunState = 'active' | 'passed' | 'failed' | 'lapsed';
export interface CiRunTable {
  id: Generated<number>;
  account_id: number;
  deployment_id: number;
  /** credentialKey() of the credential that started the run: its dev mode is what a lapse exits. */
  credential_key: string;
  /** Who may heartbeat and finish the run, and whose dev mode a lapse exits (modules/ci-gate/owner.ts). */
  owner: Json<{ kind: 'apiKey' | 'accessToken'; credentialId: number; userId: number }>;
  ref: string;
  state: ColumnType<CiRunState, CiRunState | undefined, CiRunState>;
  lease_until: Timestamp;
  created_at: CreatedAt;
  finished_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}
export type CiRunRow = Selectable<CiRunTable>;
export interface GithubConnectionTable {
  deployment_id: number;
  account_id: number;
  /** `owner/repo` with an installation, else a URL or path git understands (without credentials since migration 0031). */
  repository: string;
  /** An https URL's `user:password`, sealed (SecretBox), as JSON `{username, password}`; null without (migration 0031). */
  repository_credentials: string | null;
  installation_id: number | null;
  branch: string;
  /** The folder of the repository that holds the data model; null: `model/`. */
  directory: string | null;
  last_commit_sha: string | null;
  last_build_id: number | null;
  last_imported_at: Date | null;
  last_error: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
export type GithubConnectionRow = Selectable<GithubConnectionTable>;

/** Workspace content (migration 0027): private to `created_by` until a resource policy shares it. */
export interface FolderTable {
  id: Generated<number>;
  account_id: number;
  deployment_id: number;
  parent_id: number | null;
  name: string;
  position: Generated<number>;
  created_by: number | null;
  updated_by: number | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
export type FolderRow = Selectable<FolderTable>;

export interface WorkbookTable {
  id: Generated<number>;
  account_id: number;
  deployment_id: number;
  folder_id: number | null;
  name: string;
  type: Generated<string>;
  meta: ColumnType<Record<string, unknown>, string | undefined, string>;
  calculated_fields: ColumnType<Record<string, unknown>, string | undefined, string>;
  /** The dashboard being edited (DashboardConfig); publishing freezes it into a dashboard_version. */
  dashboard_draft: Json<Record<string, unknown> | null> | null;
  created_by: number | null;
  updated_by: number | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
export type WorkbookRow = Selectable<WorkbookTable>;

export interface ReportTable {
  id: Generated<number>;
  account_id: number;
  deployment_id: number;
  folder_id: number | null;
  workbook_id: number | null;
  /** 12 letters and digits, stable for the report's life. */
  public_id: string;
  name: string;
  title: string | null;
  description: string | null;
  type: Generated<string>;
  source: string | null;
  /** A Cube query as JSON text, as the reference stores it. */
  json_query: string | null;
  sql_query: string | null;
  pivot_items: Json<unknown> | null;
  meta: Json<Record<string, unknown> | null> | null;
  end_result_cell: string | null;
  external_workbook_id: string | null;
  result_location: string | null;
  version: Generated<number>;
  /** The last refresh's result (columns and rows), as the data API answered it. */
  snapshot: Json<unknown> | null;
  /** Why the last refresh failed; null after a refresh that worked. */
  refresh_error: string | null;
  refreshed_by: number | null;
  refreshed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_by: number | null;
  updated_by: number | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
export type ReportRow = Selectable<ReportTable>;

export type DashboardStatus = 'draft' | 'published' | 'archived';
export interface DashboardTable {
  id: Generated<number>;
  account_id: number;
  deployment_id: number;
  workbook_id: number;
  public_id: string;
  status: ColumnType<DashboardStatus, DashboardStatus | undefined, DashboardStatus>;
  allow_embed: Generated<boolean>;
  title: string | null;
  description: string | null;
  created_by: number | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
export type DashboardRow = Selectable<DashboardTable>;

export interface DashboardVersionTable {
  id: Generated<number>;
  dashboard_id: number;
  version_number: number;
  title: string | null;
  description: string | null;
  config: Json<Record<string, unknown>>;
  report_snapshots: ColumnType<unknown[], string | undefined, string>;
  published_by: number | null;
  created_at: CreatedAt;
}
export type DashboardVersionRow = Selectable<DashboardVersionTable>;

/** The account's embed theme: only what an admin set (migration 0028). */
export interface EmbedThemeTable {
  account_id: number;
  theme: Json<Record<string, unknown>>;
  updated_by: number | null;
  updated_at: UpdatedAt;
}

/** The account's app theme: only what an admin set; reads fill in the defaults (migration 0028). */
export interface AppThemeTable {
  account_id: number;
  theme: Json<Record<string, unknown>>;
  updated_by: number | null;
  updated_at: UpdatedAt;
}
/** An OpenID Connect issuer whose ID tokens the account's users may exchange (migration 0029). */
export interface OidcTokenConfigTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  issuer: string;
  audiences: Json<string[]>;
  /** Null: the issuer's discovery document names it. */
  jwks_uri: string | null;
  /** `email` (matched against the user's e-mail) or `sub` (against their externalId). */
  user_claim: Generated<string>;
  algorithms: Json<string[]>;
  enabled: Generated<boolean>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
export type OidcTokenConfigRow = Selectable<OidcTokenConfigTable>;

/** Tokens a provider issued to one user through an OAuth integration, sealed (migration 0029). */
export interface UserOAuthTokenTable {
  id: Generated<number>;
  account_id: number;
  user_id: number;
  integration_id: number;
  /** Null once revoked: nothing usable is kept. */
  access_token_encrypted: string | null;
  refresh_token_encrypted: string | null;
  token_type: Generated<string>;
  scopes: ColumnType<string[], string | undefined, string>;
  expires_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  refreshed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  revoked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
export type UserOAuthTokenRow = Selectable<UserOAuthTokenTable>;
/** An OpenAI-compatible endpoint of the account (migration 0030); the key is sealed, never returned. */
export interface AgentLlmTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  base_url: string;
  model: string;
  api_key_sealed: string | null;
  created_by: number | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
export type AgentLlmRow = Selectable<AgentLlmTable>;

export interface AgentTable {
  id: Generated<number>;
  account_id: number;
  deployment_id: number;
  name: string;
  accessible_views: Json<string[]>;
  agent_llm_id: number | null;
  allow_embedding: Generated<boolean>;
  config: Json<Record<string, unknown> | null> | null;
  created_by: number | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
export type AgentRow = Selectable<AgentTable>;

export interface AiEngineerSettingsTable {
  account_id: number;
  enabled: Generated<boolean>;
  token_ttl_seconds: Generated<number>;
  updated_by: number | null;
  updated_at: UpdatedAt;
}

export interface AgentRegionChoiceTable {
  account_id: number;
  user_id: number;
  region_name: string;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
