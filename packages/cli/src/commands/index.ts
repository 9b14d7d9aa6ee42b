import type { Group, Verb } from '../core/define.js';

/**
 * Every command of `plinth`: its name, one line of help, and how to load it. Nothing here imports
 * a command module; the tree loads only the entry a run asks for. A new group adds one line.
 */
export interface Entry {
  name: string;
  summary: string;
  aliases?: string[];
  load(): Promise<Group | { verb: Verb }>;
}

const group = (name: string, summary: string, load: () => Promise<{ group: Group }>, aliases?: string[]): Entry => ({
  name,
  summary,
  aliases,
  load: async () => (await load()).group,
});

export const manifest: Entry[] = [
  { name: 'login', summary: 'Log in to a Plinth server (browser device flow or API key)', load: () => import('./auth/login.js') },
  { name: 'logout', summary: "Remove a context's credentials and revoke its login", load: () => import('./auth/logout.js') },
  { name: 'whoami', summary: 'Show the account, user or key, role and credential in use', load: () => import('./auth/whoami.js') },
  group('context', 'List, switch and show saved contexts', () => import('./context/index.js')),
  group('deployments', 'Deployments: list, get, create, build status and builds', () => import('./deployments/index.js')),
  group(
    'environments',
    'Environments of a deployment (production, staging, development) and their tokens',
    () => import('./environments/index.js'),
  ),
  group('variables', "A deployment's environment variables: list, set, unset", () => import('./variables/index.js')),
  group('data-model', 'Data model files, branches and dev mode', () => import('./data-model/index.js')),
  group('dbt', 'dbt sync: connect a dbt project, sync it onto a built branch, follow and cancel syncs', () => import('./dbt/index.js')),
  group('ci', 'Continuous integration: check a dbt ref against real data (dbt-gate)', () => import('./ci/index.js')),
  group('github', 'GitHub: installations, repositories, and connecting a deployment to one', () => import('./github/index.js'), ['gh']),
  group('users', 'Internal users: list, get, create, update, delete, passwords and invites', () => import('./users/index.js')),
  group('groups', 'User groups and their members', () => import('./groups/index.js')),
  group('app', "The application's theme: palettes and typography (app theme get|set)", () => import('./app/index.js')),
  group(
    'policies',
    'Resource policies: what users and groups may do on the account and each deployment',
    () => import('./policies/index.js'),
  ),
  group('folders', "Folders of a deployment's workspace: list, create, update, delete, ancestors", () => import('./folders/index.js')),
  group(
    'workspace',
    'Your and the shared workspace of a deployment: folders, workbooks and reports, and moving them',
    () => import('./workspace/index.js'),
  ),
  group(
    'pre-aggregations',
    "A deployment's pre-aggregations: list, build, status and preview",
    () => import('./pre-aggregations/index.js'),
  ),
  group('reports', 'Reports: saved queries of a deployment, their refresh and report folders', () => import('./reports/index.js')),
  group(
    'notifications',
    'Scheduled notifications: dashboards delivered by e-mail and Slack, their recipients and runs',
    () => import('./notifications/index.js'),
  ),
  group('attributes', 'User attributes and the values users hold', () => import('./attributes/index.js')),
  group('tenant', 'Tenant settings of the account', () => import('./tenant/index.js')),
  group('integrations', 'OAuth integrations', () => import('./integrations/index.js')),
  group('oidc', 'OIDC token configs, and exchanging an ID token for an access token', () => import('./oidc/index.js')),
  group('oauth-tokens', 'Your OAuth tokens issued through the OAuth integrations', () => import('./oauth-tokens/index.js')),
  group('api-keys', 'API keys of the account', () => import('./api-keys/index.js')),
  group('scim', 'SCIM 2.0 users, groups, search, bulk and discovery (with a SCIM token), and SCIM tokens', () => import('./scim/index.js')),
  group('agents', 'Agents of a deployment, their skills, and the LLM endpoints of the account', () => import('./agents/index.js')),
  group('ai', 'AI engineer settings and your agent region', () => import('./ai/index.js')),
  group('chat', "Ask a deployment's agent as an embedded user, and read that user's threads", () => import('./chat/index.js')),
  group('embed', 'Signed embedding: sessions, tokens, audit, embed tenants and their users', () => import('./embed/index.js')),
  group('workbooks', 'Workbooks of a deployment: calculated fields, dashboard drafts and publishing', () => import('./workbooks/index.js')),
  {
    name: 'validate',
    summary: "Compile a branch's data model and print the compiler's errors",
    load: () => import('./validate/validate.js'),
  },
  { name: 'deploy', summary: 'Deploy a data model folder: upload changed files, build once', load: () => import('./deploy/deploy.js') },
  { name: 'regions', summary: 'List the regions a deployment may be created in', load: () => import('./regions/regions.js') },
  { name: 'meta', summary: "Print the cubes, views and members of a deployment's data model", load: () => import('./meta/meta.js') },
  {
    name: 'metadata',
    summary: "Print the cubes, views and members of a deployment's current build that you may see",
    load: () => import('./metadata/metadata.js'),
  },
  {
    name: 'load',
    summary: "Run a query on a deployment's data API and print the rows",
    load: () => import('./load/load.js'),
  },
  { name: 'sql', summary: "Run a SQL query on a deployment's data model", load: () => import('./sql/sql.js') },
  { name: 'logs', summary: "Show or follow a deployment's build logs", load: () => import('./logs/logs.js') },
  { name: 'spec', summary: 'List the operations of the API, or print its OpenAPI document', load: () => import('./spec/spec.js') },
  { name: 'api', summary: 'Send an authenticated request to any path of the API', load: () => import('./api/api.js') },
  { name: 'update', summary: 'Install the latest release of plinth (--check only reports)', load: () => import('./update/update.js') },
  { name: 'completion', summary: 'Print a shell completion script (bash, zsh or fish)', load: () => import('./completion/completion.js') },
];

/** Every entry loaded, for completion scripts. */
export async function loadAll(): Promise<Array<{ entry: Entry; loaded: Group | { verb: Verb } }>> {
  return Promise.all(manifest.map(async (entry) => ({ entry, loaded: await entry.load() })));
}
