import { Type } from '@sinclair/typebox';
import { StringEnum, Timestamp } from '../../http/common-schemas.js';

/** GitHub's own field names (camel-cased like the rest of the API), so a reader of GitHub's docs recognises them. */
const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

export const InstallationId = Type.Integer({
  minimum: 1,
  maximum: 9_007_199_254_740_991,
  description: "The App installation's id on GitHub.",
});
export const FullName = Type.String({
  pattern: '^[A-Za-z0-9_.-]{1,100}/[A-Za-z0-9_.-]{1,100}$',
  description: '`owner/repo`, as GitHub writes `full_name`.',
});

export const GithubApp = Type.Object({
  id: Type.Integer(),
  slug: Type.String(),
  name: Type.String(),
  owner: Nullable(Type.String({ description: 'Login of the account that owns the App.' })),
  htmlUrl: Type.String(),
});

export const GithubConnection = Type.Object(
  {
    deploymentId: Type.Integer(),
    repository: Type.String({ description: '`owner/repo` with an installation, else the git URL or path it clones.' }),
    installationId: Type.Union([Type.Integer(), Type.Null()]),
    branch: Type.String(),
    directory: Type.String({ description: 'The folder of the repository whose files become the `model/` folder.' }),
    cloneUrl: Type.String({ description: 'What the server clones (never with credentials).' }),
    lastCommitSha: Nullable(Type.String()),
    lastBuildId: Type.Union([Type.Integer(), Type.Null()]),
    lastImportedAt: Type.Union([Timestamp, Type.Null()]),
    lastError: Nullable(Type.String({ description: 'Why the last import from a push or sync failed; null after a success.' })),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'GithubConnection' },
);

export const GithubStatus = Type.Object(
  {
    configured: Type.Boolean({ description: 'Whether the App ID and private key are set.' }),
    apiUrl: Type.String({ description: 'PLINTH_GITHUB_API_URL: api.github.com, or `https://host/api/v3` for GitHub Enterprise Server.' }),
    webhookConfigured: Type.Boolean({ description: 'Whether PLINTH_GITHUB_WEBHOOK_SECRET is set, so pushes can be verified.' }),
    app: Type.Union([GithubApp, Type.Null()]),
    error: Nullable(
      Type.String({ description: 'Why GitHub could not be asked about the App; null when it answered or is not configured.' }),
    ),
    connections: Type.Array(Type.Ref(GithubConnection), { description: 'Connections of the deployments the caller may read.' }),
  },
  { $id: 'GithubStatus' },
);

export const GithubInstallation = Type.Object({
  id: Type.Integer(),
  account: Nullable(Type.String({ description: 'Login of the user or organization the App is installed on.' })),
  accountType: Nullable(Type.String()),
  repositorySelection: Type.String({ description: '`all` or `selected`.' }),
  htmlUrl: Type.String(),
  suspended: Type.Boolean(),
});

export const GithubInstallationList = Type.Object({ items: Type.Array(GithubInstallation) }, { $id: 'GithubInstallationList' });

export const GithubRepository = Type.Object({
  id: Type.Integer(),
  fullName: Type.String(),
  name: Type.String(),
  private: Type.Boolean(),
  defaultBranch: Type.String(),
  htmlUrl: Type.String(),
  cloneUrl: Type.String(),
});

export const GithubRepositoryList = Type.Object({ items: Type.Array(GithubRepository) }, { $id: 'GithubRepositoryList' });

export const GithubBranch = Type.Object({ name: Type.String(), commitSha: Type.String(), protected: Type.Boolean() });
export const GithubBranchList = Type.Object({ items: Type.Array(GithubBranch) }, { $id: 'GithubBranchList' });

export const ConnectGithubBody = Type.Object(
  {
    repository: Type.String({
      minLength: 1,
      maxLength: 2048,
      description:
        '`owner/repo` of the installation, or (without installationId) any URL or path git understands: https, ssh, a local path. ' +
        "An https URL's user and password (or token) are stored sealed and never shown; the connection keeps the URL without them.",
    }),
    installationId: Type.Optional(InstallationId),
    branch: Type.String({ minLength: 1, maxLength: 255, description: 'The branch to import from, now and on every push.' }),
    directory: Type.Optional(
      Type.String({ minLength: 1, maxLength: 512, description: 'Folder of the repository holding the data model; `model` by default.' }),
    ),
  },
  { additionalProperties: false, $id: 'ConnectGithubInput' },
);

export const GithubImport = Type.Object(
  {
    connection: Type.Ref(GithubConnection),
    commitSha: Type.String({ description: 'The repository commit imported.' }),
    commitId: Type.Integer({ description: "The deploy branch's head after the import." }),
    changed: Type.Boolean({ description: 'Whether the import made a new commit on the deploy branch.' }),
    buildId: Type.Union([Type.Integer(), Type.Null()]),
    files: Type.Integer({ description: 'Data model files imported.' }),
  },
  { $id: 'GithubImport' },
);

export const GithubSyncQueued = Type.Object(
  {
    deploymentId: Type.Integer(),
    jobId: Type.Integer({ description: 'The `github.import` job; an import already queued for the deployment is reused.' }),
    queued: Type.Boolean({ description: 'False when an import of the deployment was already queued or running.' }),
  },
  { $id: 'GithubSyncQueued' },
);

export const GithubWebhookResult = Type.Object(
  {
    event: Type.String({ description: 'X-GitHub-Event.' }),
    delivery: Nullable(Type.String({ description: 'X-GitHub-Delivery.' })),
    status: StringEnum(['pong', 'queued', 'ignored'] as const),
    reason: Nullable(Type.String({ description: 'Why nothing was queued.' })),
    imports: Type.Array(Type.Object({ deploymentId: Type.Integer(), jobId: Type.Integer() })),
  },
  { $id: 'GithubWebhookResult' },
);

export const RepositoryQuery = Type.Object({ installationId: InstallationId }, { additionalProperties: false });

export const InstallationParams = Type.Object({ installationId: InstallationId });
export const BranchesParams = Type.Object({
  owner: Type.String({ minLength: 1, maxLength: 100 }),
  repo: Type.String({ minLength: 1, maxLength: 100 }),
});

export const githubSchemas = [
  GithubConnection,
  GithubStatus,
  GithubInstallationList,
  GithubRepositoryList,
  GithubBranchList,
  ConnectGithubBody,
  GithubImport,
  GithubSyncQueued,
  GithubWebhookResult,
];
