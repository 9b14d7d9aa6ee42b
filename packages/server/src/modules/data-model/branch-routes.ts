import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../../http/auth.js';
import { commit, Conflict, LimitExceeded, merge, mergeToDeploy, PREFIX, read, TAGS, writeDev, writeShared } from './routes.js';
import {
  BranchParams,
  CommitBody,
  CreateBranchBody,
  CreatedBranch,
  DataModelBranch,
  DataModelBranches,
  DeleteBranchQuery,
  DeletedBranch,
  DeploymentParams,
  DevModeEntered,
  DevModeExited,
  DevModeStatus,
  EnterDevModeBody,
  MergeBody,
  MergeResult,
  MergeToDefaultBody,
  MergeToDefaultResult,
  PullBody,
  PullResult,
} from './schemas.js';

/** Branches, dev mode, commit, pull and merges. */
export const branchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { branches, devMode } = app.services.dataModel;
  const mergeConflict = Conflict('Files changed on both sides since their common base; nothing was written');

  app.get(`${PREFIX}/branches`, {
    config: { auth: read },
    schema: {
      operationId: 'getDataModelBranches',
      tags: TAGS,
      summary: 'List the shared branches and your dev-mode branches',
      params: DeploymentParams,
      response: { 200: Type.Ref(DataModelBranches) },
    },
    handler: (request) => branches.list(principalOf(request), request.params.deploymentId),
  });

  app.post(`${PREFIX}/branches`, {
    config: { auth: writeShared },
    schema: {
      operationId: 'createDataModelBranch',
      tags: TAGS,
      summary: 'Create a shared branch',
      description: 'Points at the head of `from` (default the deploy branch). With `devMode`, your dev-mode session points at it.',
      params: DeploymentParams,
      body: Type.Ref(CreateBranchBody),
      response: { 201: Type.Ref(CreatedBranch), 409: Type.Ref('Error', { description: 'The branch exists' }) },
    },
    handler: async (request, reply) =>
      reply.code(201).send(await branches.create(principalOf(request), request.params.deploymentId, request.body)),
  });

  app.delete(`${PREFIX}/branches/:branchName`, {
    config: { auth: writeDev },
    schema: {
      operationId: 'deleteDataModelBranch',
      tags: TAGS,
      summary: 'Delete a branch',
      description: 'A shared branch needs `SchemaUpdate`; your own dev-mode branch `SchemaUpdateDevBranches`. Sessions on it are closed.',
      params: BranchParams,
      querystring: DeleteBranchQuery,
      response: { 200: Type.Ref(DeletedBranch) },
    },
    handler: (request) =>
      branches.delete(principalOf(request), request.params.deploymentId, request.params.branchName, request.query.removeOnUpstream),
  });

  for (const [verb, alwaysActive] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    app.post(`${PREFIX}/branches/:branchName/${verb}`, {
      config: { auth: writeShared },
      schema: {
        operationId: `${verb}DataModelBranch`,
        tags: TAGS,
        summary: alwaysActive
          ? "Keep a shared branch's staging environment always active"
          : "Make a shared branch's staging environment active only while viewed",
        params: BranchParams,
        response: { 200: Type.Ref(DataModelBranch) },
      },
      handler: (request) =>
        branches.setAlwaysActive(principalOf(request), request.params.deploymentId, request.params.branchName, alwaysActive),
    });
  }

  app.get(`${PREFIX}/dev-mode`, {
    config: { auth: read },
    schema: {
      operationId: 'getDevMode',
      tags: TAGS,
      summary: "Show your credential's dev-mode session",
      params: DeploymentParams,
      response: { 200: Type.Ref(DevModeStatus) },
    },
    handler: (request) => devMode.status(principalOf(request), request.params.deploymentId),
  });

  app.post(`${PREFIX}/dev-mode`, {
    config: { auth: writeDev },
    schema: {
      operationId: 'enterDevMode',
      tags: TAGS,
      summary: 'Enter dev mode on a branch',
      description: 'A shared branch forks a new `dev-…` branch every time; one of your dev-mode branches is resumed.',
      params: DeploymentParams,
      body: Type.Ref(EnterDevModeBody),
      response: { 200: Type.Ref(DevModeEntered) },
    },
    handler: (request) => devMode.enter(principalOf(request), request.params.deploymentId, request.body.branch),
  });

  app.delete(`${PREFIX}/dev-mode`, {
    config: { auth: writeDev },
    schema: {
      operationId: 'exitDevMode',
      tags: TAGS,
      summary: 'Exit dev mode',
      description: 'Commands that omit the branch target the deploy branch again. Idempotent.',
      params: DeploymentParams,
      response: { 200: Type.Ref(DevModeExited) },
    },
    handler: (request) => devMode.exit(principalOf(request), request.params.deploymentId),
  });

  app.post(`${PREFIX}/commit`, {
    config: { auth: commit },
    schema: {
      operationId: 'commitDataModel',
      tags: TAGS,
      summary: "Push a dev-mode branch's edits to the shared branch it was forked from",
      params: DeploymentParams,
      body: Type.Ref(CommitBody),
      response: { 200: Type.Ref(MergeResult), 409: mergeConflict, 422: LimitExceeded },
    },
    handler: (request) => devMode.commit(principalOf(request), request.params.deploymentId, request.body),
  });

  app.post(`${PREFIX}/pull`, {
    config: { auth: writeDev },
    schema: {
      operationId: 'pullDataModel',
      tags: TAGS,
      summary: "Bring the shared branch's newer commits into a dev-mode branch",
      params: DeploymentParams,
      body: Type.Ref(PullBody),
      response: { 200: Type.Ref(PullResult), 409: mergeConflict, 422: LimitExceeded },
    },
    handler: (request) => devMode.pull(principalOf(request), request.params.deploymentId, request.body),
  });

  app.post(`${PREFIX}/merge`, {
    config: { auth: merge },
    schema: {
      operationId: 'mergeDataModelBranch',
      tags: TAGS,
      summary: 'Merge a shared branch into another',
      params: DeploymentParams,
      body: Type.Ref(MergeBody),
      response: { 200: Type.Ref(MergeResult), 409: mergeConflict, 422: LimitExceeded },
    },
    handler: (request) => branches.merge(principalOf(request), request.params.deploymentId, request.body),
  });

  app.post(`${PREFIX}/merge-to-default`, {
    config: { auth: mergeToDeploy },
    schema: {
      operationId: 'mergeDataModelBranchToDefault',
      tags: TAGS,
      summary: 'Merge a shared branch into the deploy branch',
      description: 'Production is rebuilt; the merged branch is deleted unless `keepBranch`.',
      params: DeploymentParams,
      body: Type.Ref(MergeToDefaultBody),
      response: { 200: Type.Ref(MergeToDefaultResult), 409: mergeConflict, 422: LimitExceeded },
    },
    handler: (request) => branches.mergeToDefault(principalOf(request), request.params.deploymentId, request.body),
  });
};
