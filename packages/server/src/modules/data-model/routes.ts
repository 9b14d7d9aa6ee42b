import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../../http/auth.js';
import { deploymentParam, requires } from '../../http/requirement.js';
import { branchRoutes } from './branch-routes.js';
import { MAX_FILE_BYTES } from './limits.js';
import { DEFAULT_BRANCH } from './public.js';
import {
  BranchQuery,
  CommitsQuery,
  DataModelCommits,
  DataModelDiff,
  DataModelFile,
  DataModelFiles,
  DeleteFileResult,
  DeploymentParams,
  FileHashes,
  PathQuery,
  PutFileBody,
  PutFileResult,
  RenameBody,
  RenameResult,
} from './schemas.js';

/** Every data-model route is under the authoring prefix, on the same host and credentials as /api/v1. */
export const PREFIX = '/build/api/v1/deployments/:deploymentId';
export const TAGS = ['Data Model'];
export const read = requires('SchemaRead', { resource: deploymentParam() });
export const writeDev = requires('SchemaUpdateDevBranches', { resource: deploymentParam(), doing: 'change dev-mode branches' });
export const writeShared = requires('SchemaUpdate', { resource: deploymentParam(), doing: 'change shared branches' });
/** Merging into the deploy branch changes production: issue 15 asks DeploymentUpdate for it. */
const toProduction = { permission: 'DeploymentUpdate', doing: 'merge into the deploy branch, which changes production' } as const;
export const merge = requires('SchemaUpdate', { ...writeShared, stricterWhen: { bodyIs: { target: DEFAULT_BRANCH }, ...toProduction } });
export const commit = requires('SchemaUpdate', {
  ...writeShared,
  alsoDemands: 'A commit into the deploy branch also requires `DeploymentUpdate`.',
});
export const mergeToDeploy = requires('DeploymentUpdate', { resource: deploymentParam(), doing: toProduction.doing });
export const Conflict = (description: string) => Type.Ref('DataModelConflict', { description });
export const TooLarge = Type.Ref('Error', { description: 'A file is larger than 1 MiB' });
export const LimitExceeded = Type.Ref('Error', { description: 'The data model would exceed 5,000 files or 50 MiB' });

export const dataModelRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const files = app.services.dataModel.files;
  const history = app.services.dataModel.history;

  app.get(`${PREFIX}/files`, {
    config: { auth: read },
    schema: {
      operationId: 'listDataModelFiles',
      tags: TAGS,
      summary: "List a branch's data model files",
      params: DeploymentParams,
      querystring: BranchQuery,
      response: { 200: Type.Ref(DataModelFiles) },
    },
    handler: (request) => files.list(principalOf(request), request.params.deploymentId, request.query.branch),
  });

  app.get(`${PREFIX}/files/content`, {
    config: { auth: read },
    schema: {
      operationId: 'getDataModelFile',
      tags: TAGS,
      summary: 'Get a data model file and its content',
      params: DeploymentParams,
      querystring: PathQuery,
      response: { 200: Type.Ref(DataModelFile) },
    },
    handler: (request) => files.get(principalOf(request), request.params.deploymentId, request.query.path, request.query.branch),
  });

  app.put(`${PREFIX}/files/content`, {
    // A 1 MiB file grows in JSON (escapes, \uXXXX): room for the worst case, so the file limit
    // (413 naming the file) is what refuses a file, not the server's 1 MiB body limit.
    bodyLimit: 6 * MAX_FILE_BYTES + 64 * 1024,
    config: { auth: writeDev },
    schema: {
      operationId: 'putDataModelFile',
      tags: TAGS,
      summary: 'Create or replace a file on a dev-mode branch',
      description: 'Accepted only on `dev-…` branches. The same content as the branch holds makes no commit (`changed: false`).',
      params: DeploymentParams,
      body: Type.Ref(PutFileBody),
      response: {
        200: Type.Ref(PutFileResult),
        409: Conflict('The branch moved and changed the same file'),
        413: TooLarge,
        422: LimitExceeded,
      },
    },
    handler: (request) => files.put(principalOf(request), request.params.deploymentId, request.body),
  });

  app.delete(`${PREFIX}/files/content`, {
    config: { auth: writeDev },
    schema: {
      operationId: 'deleteDataModelFile',
      tags: TAGS,
      summary: 'Delete a file on a dev-mode branch',
      params: DeploymentParams,
      querystring: PathQuery,
      response: { 200: Type.Ref(DeleteFileResult), 409: Conflict('The branch moved and changed the same file') },
    },
    handler: (request) => files.delete(principalOf(request), request.params.deploymentId, request.query.path, request.query.branch),
  });

  app.post(`${PREFIX}/files/rename`, {
    config: { auth: writeDev },
    schema: {
      operationId: 'renameDataModelFile',
      tags: TAGS,
      summary: 'Rename a file on a dev-mode branch',
      params: DeploymentParams,
      body: Type.Ref(RenameBody),
      response: { 200: Type.Ref(RenameResult), 409: Conflict('A file already has the new name, or the branch moved and changed it') },
    },
    handler: (request) => files.rename(principalOf(request), request.params.deploymentId, request.body),
  });

  app.get(`${PREFIX}/file-hashes`, {
    config: { auth: read },
    schema: {
      operationId: 'getDataModelFileHashes',
      tags: TAGS,
      summary: 'Get the SHA-256 of every file of a branch',
      params: DeploymentParams,
      querystring: BranchQuery,
      response: { 200: Type.Ref(FileHashes) },
    },
    handler: (request) => files.hashes(principalOf(request), request.params.deploymentId, request.query.branch),
  });

  app.get(`${PREFIX}/commits`, {
    config: { auth: read },
    schema: {
      operationId: 'getDataModelCommits',
      tags: TAGS,
      summary: "List a branch's commits, newest first",
      params: DeploymentParams,
      querystring: CommitsQuery,
      response: { 200: Type.Ref(DataModelCommits) },
    },
    handler: (request) => history.commits(principalOf(request), request.params.deploymentId, request.query),
  });

  app.get(`${PREFIX}/diff`, {
    config: { auth: read },
    schema: {
      operationId: 'getDataModelBranchDiff',
      tags: TAGS,
      summary: 'Diff a branch against the branch it came from',
      params: DeploymentParams,
      querystring: BranchQuery,
      response: { 200: Type.Ref(DataModelDiff) },
    },
    handler: (request) => history.diff(principalOf(request), request.params.deploymentId, request.query.branch),
  });

  await app.register(branchRoutes);
};
