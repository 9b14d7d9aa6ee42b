import type { Command } from 'commander';
import { expect, it } from 'vitest';
import { buildProgram } from '../core/tree.js';
import type { IO } from '../core/io.js';
import { cliRunner, describeCli } from '../test-support/harness.js';
import { manifest } from './index.js';

/** An operation a person never runs as a command of its own, and why. */
const none = (reason: string) => ({ none: reason });
const DATA_API = none("data API: queried by Cube's clients (curl, @cubejs-client/core) with data API tokens");

/**
 * Every operation of the served OpenAPI document and the `plinth` command that performs it. A new
 * server operation fails the first test below until it has a command (and a row here); a row may
 * name no command only with one of the reasons allowed for that.
 */
const COMMANDS: Record<string, string | { none: string }> = {
  getHealth: none('health endpoint, for load balancers and orchestrators'),
  getReadiness: none('health endpoint, for load balancers and orchestrators'),
  getOpenApiSpec: 'spec',
  getDeploymentOpenApiSpec: none("data API: the platform's document at a deployment's URL, for Cube's clients; `plinth spec` prints it"),

  // Cube's data API, for Cube's clients with data API tokens.
  loadV1Get: DATA_API,
  loadV1: 'load',
  sqlV1Get: DATA_API,
  sqlV1: DATA_API,
  dryRunV1Get: DATA_API,
  dryRunV1: DATA_API,
  metaV1: 'meta',
  cubesqlV1: 'sql',
  branchLoadV1Get: DATA_API,
  branchLoadV1: DATA_API,
  branchSqlV1Get: DATA_API,
  branchSqlV1: DATA_API,
  branchDryRunV1Get: DATA_API,
  branchDryRunV1: DATA_API,
  branchMetaV1: DATA_API,
  branchCubesqlV1: DATA_API,

  getFolders: 'folders list',
  createFolder: 'folders create',
  updateFolder: 'folders update',
  deleteFolder: 'folders delete',
  getFolderAncestors: 'folders ancestors',
  workspaceObjects: 'workspace list',
  sharedWorkspaceObjects: 'workspace shared',
  moveWorkspaceObject: 'workspace move',

  createApiKey: 'api-keys create',
  listApiKeys: 'api-keys list',
  revokeApiKey: 'api-keys revoke',
  getPolicies: 'policies list',
  updateUserPolicy: 'policies set-user',
  updateGroupPolicy: 'policies set-group',
  createScimToken: 'scim tokens create',
  listScimTokens: 'scim tokens list',
  revokeScimToken: 'scim tokens revoke',

  createDeployment: 'deployments create',
  getDeployments: 'deployments list',
  getDeployment: 'deployments get',
  deploymentToken: 'deployments token',
  getDeploymentEnvironments: 'environments list',
  getDeploymentEnvironmentTokens: 'environments tokens',
  createDeploymentEnvironmentToken: 'environments create-token',
  createDeploymentEnvironmentTokenForMetaSync: 'environments create-meta-sync-token',
  rotateDeploymentEnvironmentSqlPassword: 'environments rotate-sql-password',
  updateDeployment: 'deployments update',
  deleteDeployment: 'deployments delete',
  getDeploymentSettings: 'deployments settings',
  getDeploymentVersions: 'deployments versions',
  advanceDeploymentCreationStep: 'deployments advance-step',
  resetDeploymentCreationStep: 'deployments reset-step',
  getRegions: 'regions',
  getDeploymentBuildStatus: 'deployments build-status',
  getDeploymentBuilds: 'deployments builds',
  getDeploymentBuild: 'deployments build-get',
  createDeploymentBuild: 'deployments build',
  cancelDeploymentBuild: 'deployments build-cancel',
  validateDataModel: 'validate',
  getDeploymentLogs: 'logs',
  getDeploymentVariables: 'variables list',
  setDeploymentVariables: 'variables set',
  deleteDeploymentVariable: 'variables unset',

  connectDbt: 'dbt connect',
  getDbtIntegration: 'dbt show',
  disconnectDbt: 'dbt disconnect',
  startDbtSync: 'dbt sync',
  getDbtSyncStatus: 'dbt status',
  getDbtSyncResult: 'dbt result',
  cancelDbtSync: 'dbt cancel',

  listOAuthIntegrations: 'integrations list',
  getOAuthIntegration: 'integrations get',
  createOAuthIntegration: 'integrations create',
  updateOAuthIntegration: 'integrations update',
  deleteOAuthIntegration: 'integrations delete',
  getOidcTokenConfigs: 'oidc list',
  getOidcTokenConfig: 'oidc get',
  createOidcTokenConfig: 'oidc create',
  updateOidcTokenConfig: 'oidc update',
  deleteOidcTokenConfig: 'oidc delete',
  exchangeOidcToken: 'oidc exchange',
  getUserOAuthTokens: 'oauth-tokens list',
  createUserOAuthToken: 'oauth-tokens create',
  refreshUserOAuthToken: 'oauth-tokens refresh',
  deleteUserOAuthToken: 'oauth-tokens revoke',

  getUsers: 'users list',
  getAccountUser: 'users get',
  getMe: 'users me',
  getEmbedTheme: 'users embed-theme get',
  updateEmbedTheme: 'users embed-theme set',
  getAppTheme: 'app theme get',
  updateAppTheme: 'app theme set',
  createAccountUser: 'users create',
  updateAccountUser: 'users update',
  deleteAccountUser: 'users delete',
  setUserPassword: 'users set-password',
  createUserInvite: 'users invite',
  acceptInvite: 'users accept-invite',

  listGroups: 'groups list',
  getUserGroup: 'groups get',
  createUserGroup: 'groups create',
  updateUserGroup: 'groups update',
  deleteGroup: 'groups delete',
  listGroupMembers: 'groups members',
  addGroupMembers: 'groups add-members',
  removeGroupMember: 'groups remove-member',

  listUserAttributes: 'attributes list',
  getUserAttribute: 'attributes get',
  createUserAttribute: 'attributes create',
  updateUserAttribute: 'attributes update',
  deleteUserAttribute: 'attributes delete',
  getUserAttributeValues: 'attributes values',
  setUserAttributeValues: 'attributes set-values',

  getTenantSettings: 'tenant show',
  updateTenantSettings: 'tenant update',
  getSlackBotToken: 'tenant slack-token',
  setSlackBotToken: 'tenant set-slack-token',
  deleteSlackBotToken: 'tenant unset-slack-token',

  startDataModelUpload: 'deploy',
  uploadDataModelFile: 'deploy',
  finishDataModelUpload: 'deploy',
  abortDataModelUpload: 'deploy',

  createDeviceCode: none('device flow: called by `plinth login` itself'),
  createToken: none('device flow and refresh: called by `plinth login` and by every command when an access token expires'),
  revokeToken: 'logout',
  getWhoAmI: 'whoami',
  getDeviceVerificationPage: none('public browser page (HTML) where a person approves a device login'),
  submitDeviceVerification: none('public browser page (HTML form) where a person approves a device login'),
  getInvitePage: none('public browser page (HTML) of an invite link; `users accept-invite` does the same from the terminal'),
  submitInvite: none('public browser page (HTML form) of an invite link; `users accept-invite` does the same from the terminal'),
  recordTelemetry: none('telemetry: sent by the client itself after each command'),

  listUsers: 'scim users list',
  scimSearchUsers: 'scim users search',
  getUser: 'scim users get',
  createUser: 'scim users create',
  replaceUser: 'scim users replace',
  patchUser: 'scim users patch',
  deleteUser: 'scim users delete',
  scimListGroups: 'scim groups list',
  scimSearchGroups: 'scim groups search',
  getGroup: 'scim groups get',
  createGroup: 'scim groups create',
  replaceGroup: 'scim groups replace',
  patchGroup: 'scim groups patch',
  scimDeleteGroup: 'scim groups delete',
  scimSearchAll: 'scim search',
  scimBulk: 'scim bulk',
  scimGetServiceProviderConfig: 'scim service-provider-config',
  scimListResourceTypes: 'scim resource-types list',
  scimGetResourceType: 'scim resource-types get',
  scimListSchemas: 'scim schemas list',
  scimGetSchema: 'scim schemas get',

  generateSession: 'embed generate-session',
  postTokenBySessionId: 'embed token',
  revokeEmbedSession: 'embed revoke',
  revokeEmbedSessionById: 'embed revoke',
  listEmbedSessions: 'embed sessions',
  getGroups: 'embed groups list',
  deleteEmbedTenantGroup: 'embed groups delete',
  getUserAttributes: 'embed attributes list',
  deleteEmbedTenantUserAttribute: 'embed attributes delete',
  listEmbedTenantUsers: 'embed users list',
  getEmbedTenantUser: 'embed users get',
  provisionEmbedUser: 'embed provision',
  provisionEmbedUsers: 'embed provision-bulk',
  updateDashboardEmbedAccess: 'embed enable-dashboard',
  getDashboard: 'embed dashboard',
  getEmbedContext: 'embed context',
  streamChatState: 'chat ask',
  streamDeploymentChatState: 'chat ask',
  listChatThreads: 'chat threads',
  getChatThread: 'chat thread',

  getWorkbooks: 'workbooks list',
  getWorkbook: 'workbooks get',
  createWorkbook: 'workbooks create',
  updateWorkbook: 'workbooks update',
  deleteWorkbook: 'workbooks delete',
  duplicateWorkbook: 'workbooks duplicate',
  updateWorkbookDashboard: 'workbooks dashboard',
  publishDashboard: 'workbooks publish',

  listDataModelFiles: 'data-model list',
  getDataModelFile: 'data-model get',
  putDataModelFile: 'data-model put',
  deleteDataModelFile: 'data-model delete',
  renameDataModelFile: 'data-model rename',
  getDataModelFileHashes: 'data-model file-hashes',
  getDataModelCommits: 'data-model log',
  getDataModelBranchDiff: 'data-model diff',
  getDataModelBranches: 'data-model branches',
  createDataModelBranch: 'data-model create-branch',
  deleteDataModelBranch: 'data-model delete-branch',
  enableDataModelBranch: 'data-model enable-branch',
  disableDataModelBranch: 'data-model disable-branch',
  getDevMode: 'data-model dev-mode-status',
  enterDevMode: 'data-model dev-mode',
  exitDevMode: 'data-model exit-dev-mode',
  commitDataModel: 'data-model commit',
  pullDataModel: 'data-model pull',
  mergeDataModelBranch: 'data-model merge',
  mergeDataModelBranchToDefault: 'data-model merge-to-default',
  startCiRun: 'ci dbt-gate',
  heartbeatCiRun: 'ci dbt-gate',
  finishCiRun: 'ci dbt-gate',

  getGithubStatus: 'github status',
  listGithubInstallations: 'github installations',
  listGithubRepositories: 'github repos',
  listGithubBranches: 'github branches',
  connectGithub: 'github connect',
  getGithubConnection: 'github show',
  disconnectGithub: 'github disconnect',
  syncGithub: 'github sync',
  getAgents: 'agents list',
  createAgent: 'agents create',
  updateAgent: 'agents update',
  deleteAgent: 'agents delete',
  getAgentSkills: 'agents skills',
  getAgentLlms: 'agents llms list',
  createAgentLlm: 'agents llms create',
  updateAgentLlm: 'agents llms update',
  deleteAgentLlm: 'agents llms delete',
  getAIEngineerSettings: 'ai settings',
  updateAIEngineerSettings: 'ai settings-set',
  getMyActiveAgentRegion: 'ai region',
  updateMyActiveAgentRegion: 'ai region-set',
  getMetadata: 'metadata',

  receiveGithubWebhook: none('webhook: called by GitHub with a signed delivery; `github sync` imports the same way by hand'),

  getPreAggregations: 'pre-aggregations list',
  buildPreAggregations: 'pre-aggregations build',
  getPreAggregationJobs: 'pre-aggregations status',
  getPreAggregationPreview: 'pre-aggregations preview',
  getReportFolders: 'reports folders',
  getReports: 'reports list',
  createReport: 'reports create',
  getReport: 'reports get',
  updateReport: 'reports update',
  deleteReport: 'reports delete',
  refreshReport: 'reports refresh',
  getNotifications: 'notifications list',
  createNotification: 'notifications create',
  getNotification: 'notifications get',
  updateNotification: 'notifications update',
  deleteNotification: 'notifications delete',
  getRecipients: 'notifications recipients',
  addRecipients: 'notifications add-recipients',
  removeRecipients: 'notifications remove-recipients',
  getNotificationRuns: 'notifications runs',
};

/** The reasons section 4 of the brief allows for an operation without a command. */
const ALLOWED = [
  /^health endpoint/,
  /^data API: /,
  /^public browser page \(HTML/,
  /^device flow/,
  /^telemetry: sent by the client itself/,
  /^webhook: called by GitHub/,
];

interface Operation {
  operationId: string;
  method: string;
  path: string;
  summary: string;
}

/** Every command of the real tree, as `group verb` paths, with its one-line summary. */
async function commandTree(): Promise<Map<string, string>> {
  const io: IO = {
    stdout: { write: () => true },
    stderr: { write: () => true },
    readStdin: async () => '',
    env: {},
    stdinIsTTY: false,
    promptSecret: async () => '',
    stdoutIsTTY: false,
    stderrIsTTY: false,
    platform: 'linux',
    homedir: '/nonexistent',
    background: () => {},
    wait: async () => {},
  };
  const commands = new Map<string, string>();
  const walk = (command: Command, path: string[]) => {
    if (command.commands.length === 0) commands.set(path.join(' '), command.description().split('\n')[0]!);
    for (const child of command.commands) walk(child, [...path, child.name()]);
  };
  for (const entry of manifest) {
    const { program } = await buildProgram(io, '0.0.0', [entry.name]);
    const top = program.commands.find((c) => c.name() === entry.name)!;
    walk(top, [entry.name]);
  }
  return commands;
}

describeCli('every operation of the served spec has a command', (ctx, home) => {
  const plinth = cliRunner(home);
  const served = async (): Promise<Operation[]> => {
    const spec = await plinth(['spec', '--json'], { env: { PLINTH_API_URL: ctx().url } });
    expect(spec.code, spec.stderr).toBe(0);
    const doc = JSON.parse(spec.stdout) as { paths: Record<string, Record<string, { operationId: string; summary: string }>> };
    return Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        summary: op.summary,
      })),
    );
  };

  it('each served operationId is in the table, with a command or an allowed reason', async () => {
    const operations = await served();
    const missing = operations
      .filter((op) => !(op.operationId in COMMANDS))
      .map((op) => `${op.operationId} (${op.method} ${op.path}): ${op.summary}`);
    expect(
      missing,
      `Operations without a command: add one under packages/cli/src/commands, then its row in COMMANDS of ${import.meta.url.split('/').slice(-2).join('/')}:\n  ${missing.join('\n  ')}\n`,
    ).toEqual([]);
    const unexplained = Object.entries(COMMANDS)
      .filter(([, to]) => typeof to !== 'string' && !ALLOWED.some((reason) => reason.test(to.none)))
      .map(([operationId, to]) => `${operationId}: ${(to as { none: string }).none}`);
    expect(
      unexplained,
      'Only health endpoints, the data API, browser pages, the device flow, telemetry and webhooks may go without a command',
    ).toEqual([]);
  });

  it('each command in the table exists in the command tree, and each row names a served operation', async () => {
    const operations = new Set((await served()).map((op) => op.operationId));
    const tree = await commandTree();
    const absent = Object.entries(COMMANDS)
      .filter(([, to]) => typeof to === 'string' && !tree.has(to))
      .map(([op, to]) => `${op} → plinth ${to}`);
    expect(absent, 'Rows naming a command that does not exist').toEqual([]);
    const stale = Object.keys(COMMANDS).filter((op) => !operations.has(op));
    expect(stale, 'Rows naming an operation the server no longer serves').toEqual([]);
  });

  it('a command whose summary names an operationId is the command the table gives for it', async () => {
    const operations = new Set((await served()).map((op) => op.operationId));
    const tree = await commandTree();
    const mismatched: string[] = [];
    for (const [command, summary] of tree) {
      const named = /\(([a-z][A-Za-z]+)\)$/.exec(summary)?.[1];
      if (named && operations.has(named) && COMMANDS[named] !== command)
        mismatched.push(`plinth ${command} says (${named}), the table says ${JSON.stringify(COMMANDS[named])}`);
    }
    expect(mismatched).toEqual([]);
  });
});
