import { Type } from '@sinclair/typebox';
import { IntegerId, StringEnum, Timestamp } from '../../http/common-schemas.js';
import { errorCodes } from '../../http/errors.js';
import { PageInfo, PageQuery } from '../../http/pagination.js';
import { MAX_MESSAGE_LENGTH, MAX_PATH_LENGTH } from './limits.js';

// Lengths are checked by the service with messages naming the rule; the schema bounds what is parsed.
const BranchName = Type.String({
  maxLength: 200,
  description: 'A branch name; empty or omitted: your dev-mode branch, else the deploy branch `main`.',
});
const Path = Type.String({ maxLength: MAX_PATH_LENGTH * 2, description: 'Relative to the model root, e.g. `model/cubes/orders.yml`.' });
const Message = Type.String({ maxLength: MAX_MESSAGE_LENGTH });
const Hash = Type.String({ description: 'SHA-256 of the content, lower-case hex.' });
const CommitId = IntegerId;
const NullableString = Type.Union([Type.String(), Type.Null()]);

export const DeploymentParams = Type.Object({ deploymentId: IntegerId });
export const BranchParams = Type.Object({ deploymentId: IntegerId, branchName: Type.String({ maxLength: 200 }) });
export const BranchQuery = Type.Object({ branch: Type.Optional(BranchName) });
export const PathQuery = Type.Object({ path: Path, branch: Type.Optional(BranchName) });
export const CommitsQuery = Type.Composite([PageQuery, BranchQuery]);
export const DeleteBranchQuery = Type.Object({
  removeOnUpstream: Type.Optional(Type.Boolean({ description: 'Also remove the branch of the connected Git repository.' })),
});

export const DataModelFiles = Type.Object(
  {
    branchName: Type.String(),
    commitId: CommitId,
    items: Type.Array(Type.Object({ path: Type.String(), size: Type.Integer(), hash: Hash })),
  },
  { $id: 'DataModelFiles' },
);
export const DataModelFile = Type.Object(
  { path: Type.String(), branchName: Type.String(), commitId: CommitId, hash: Hash, size: Type.Integer(), content: Type.String() },
  { $id: 'DataModelFile' },
);
export const PutFileBody = Type.Object(
  { path: Path, content: Type.String(), branch: Type.Optional(BranchName), message: Type.Optional(Message) },
  { additionalProperties: false, $id: 'PutDataModelFileInput' },
);
export const PutFileResult = Type.Object(
  { path: Type.String(), branchName: Type.String(), commitId: CommitId, hash: Hash, size: Type.Integer(), changed: Type.Boolean() },
  { $id: 'PutDataModelFileResult' },
);
export const DeleteFileResult = Type.Object(
  { path: Type.String(), branchName: Type.String(), commitId: CommitId },
  { $id: 'DeleteDataModelFileResult' },
);
export const RenameBody = Type.Object(
  { from: Path, to: Path, branch: Type.Optional(BranchName) },
  { additionalProperties: false, $id: 'RenameDataModelFileInput' },
);
export const RenameResult = Type.Object(
  { from: Type.String(), to: Type.String(), branchName: Type.String(), commitId: CommitId },
  { $id: 'RenameDataModelFileResult' },
);
export const FileHashes = Type.Object(
  { branchName: Type.String(), commitId: CommitId, hashes: Type.Record(Type.String(), Hash) },
  { $id: 'DataModelFileHashes' },
);

export const DataModelCommit = Type.Object(
  {
    id: CommitId,
    parentIds: Type.Array(CommitId),
    message: Type.String(),
    author: Type.Object({
      kind: StringEnum(['apiKey', 'accessToken', 'system'] as const),
      credentialId: Type.Union([Type.Integer(), Type.Null()]),
      userId: Type.Union([Type.Integer(), Type.Null()]),
    }),
    treeHash: Hash,
    createdAt: Timestamp,
  },
  { $id: 'DataModelCommit' },
);
export const DataModelCommits = Type.Object(
  { branchName: Type.String(), items: Type.Array(Type.Ref(DataModelCommit)), pageInfo: Type.Ref(PageInfo) },
  { $id: 'DataModelCommits' },
);
export const DataModelDiff = Type.Object(
  {
    branchName: Type.String(),
    base: Type.Object({ branchName: NullableString, commitId: Type.Union([CommitId, Type.Null()]) }),
    headCommitId: CommitId,
    changes: Type.Array(
      Type.Object({
        path: Type.String(),
        change: StringEnum(['added', 'modified', 'deleted'] as const),
        oldHash: Type.Union([Hash, Type.Null()]),
        newHash: Type.Union([Hash, Type.Null()]),
      }),
    ),
  },
  { $id: 'DataModelDiff' },
);

const branchFields = {
  name: Type.String(),
  kind: StringEnum(['shared', 'dev'] as const),
  isDefault: Type.Boolean({ description: 'The deploy branch (`main`): production is built from it.' }),
  devMode: Type.Boolean({ description: 'Created with --dev-mode: build status says `dev_mode` until it is built.' }),
  alwaysActive: Type.Boolean({ description: 'Its staging environment is always active, not only while viewed.' }),
  forkedFrom: NullableString,
  headCommitId: CommitId,
  createdAt: Timestamp,
  updatedAt: Timestamp,
};
export const DataModelBranch = Type.Object(branchFields, { $id: 'DataModelBranch' });
export const DataModelBranches = Type.Object({ items: Type.Array(Type.Ref(DataModelBranch)) }, { $id: 'DataModelBranches' });
export const CreatedBranch = Type.Object({ ...branchFields, branchName: Type.String() }, { $id: 'CreatedDataModelBranch' });
export const CreateBranchBody = Type.Object(
  { name: Type.String({ maxLength: 200 }), devMode: Type.Optional(Type.Boolean()), from: Type.Optional(BranchName) },
  { additionalProperties: false, $id: 'CreateDataModelBranchInput' },
);
export const DeletedBranch = Type.Object({ branchName: Type.String(), deleted: Type.Literal(true) }, { $id: 'DeletedDataModelBranch' });

export const DevModeStatus = Type.Object(
  { active: Type.Boolean(), branchName: NullableString, forkedFrom: NullableString },
  { $id: 'DevModeStatus' },
);
export const EnterDevModeBody = Type.Object({ branch: BranchName }, { additionalProperties: false, $id: 'EnterDevModeInput' });
export const DevModeEntered = Type.Object(
  { active: Type.Literal(true), branchName: Type.String(), forkedFrom: NullableString, commitId: CommitId },
  { $id: 'DevModeEntered' },
);
export const DevModeExited = Type.Object({ active: Type.Literal(false), branchName: NullableString }, { $id: 'DevModeExited' });

export const CommitBody = Type.Object(
  { branch: Type.Optional(BranchName), message: Message },
  { additionalProperties: false, $id: 'CommitDataModelInput' },
);
export const PullBody = Type.Object({ branch: Type.Optional(BranchName) }, { additionalProperties: false, $id: 'PullDataModelInput' });
export const MergeBody = Type.Object(
  { source: BranchName, target: BranchName, message: Type.Optional(Message) },
  { additionalProperties: false, $id: 'MergeDataModelBranchInput' },
);
export const MergeToDefaultBody = Type.Object(
  { branch: BranchName, message: Type.Optional(Message), keepBranch: Type.Optional(Type.Boolean()) },
  { additionalProperties: false, $id: 'MergeDataModelBranchToDefaultInput' },
);
const merged = {
  branchName: Type.String(),
  sourceBranch: Type.String(),
  commitId: CommitId,
  changed: Type.Boolean(),
  buildId: Type.Union([Type.Integer(), Type.Null()], { description: 'The build queued for the new head; null when nothing changed.' }),
};
export const MergeResult = Type.Object(merged, { $id: 'DataModelMergeResult' });
export const MergeToDefaultResult = Type.Object({ ...merged, deletedBranch: Type.Boolean() }, { $id: 'DataModelMergeToDefaultResult' });
export const PullResult = Type.Object(
  { branchName: Type.String(), commitId: CommitId, changed: Type.Boolean() },
  { $id: 'DataModelPullResult' },
);

/** The 409 of a merge that found files changed on both sides: the platform error plus their paths. */
export const DataModelConflict = Type.Object(
  {
    error: Type.String(),
    code: StringEnum(errorCodes),
    requestId: Type.String(),
    conflicts: Type.Optional(Type.Array(Type.String(), { description: 'The files changed on both sides; nothing was written.' })),
  },
  { $id: 'DataModelConflict' },
);

export const dataModelSchemas = [
  DataModelFiles,
  DataModelFile,
  PutFileBody,
  PutFileResult,
  DeleteFileResult,
  RenameBody,
  RenameResult,
  FileHashes,
  DataModelCommit,
  DataModelCommits,
  DataModelDiff,
  DataModelBranch,
  DataModelBranches,
  CreatedBranch,
  CreateBranchBody,
  DeletedBranch,
  DevModeStatus,
  EnterDevModeBody,
  DevModeEntered,
  DevModeExited,
  CommitBody,
  PullBody,
  MergeBody,
  MergeToDefaultBody,
  MergeResult,
  MergeToDefaultResult,
  PullResult,
  DataModelConflict,
];
