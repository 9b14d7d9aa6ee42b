import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../../http/auth.js';
import { deploymentParam, requires } from '../../http/requirement.js';
import { MAX_FILE_BYTES } from '../data-model/public.js';
import { AbortedUpload, FinishedUpload, StartUploadBody, UploadedFile, UploadFileBody, UploadParams, UploadSession } from './schemas.js';

const PREFIX = '/build/api/v1/deployments/:deploymentId/uploads';
const TAGS = ['Data Model Uploads'];
const DeploymentParams = Type.Object({ deploymentId: UploadParams.properties.deploymentId });
const error = (description: string) => Type.Ref('Error', { description });
const sessionGone = error('The upload session does not exist, is finished or aborted, or expired (after 1 hour).');
/**
 * A deploy to the caller's own dev branch needs only SchemaUpdateDevBranches; the service demands
 * SchemaUpdate once it knows the branch is shared.
 */
const auth = { auth: requires('SchemaUpdateDevBranches', { resource: deploymentParam(), doing: 'deploy a data model' }) };

// A manifest of 5,000 paths of up to 512 characters, and a file of 1 MiB that JSON may escape.
const MANIFEST_BODY_LIMIT = 4 * 1024 * 1024;
const FILE_BODY_LIMIT = 2 * MAX_FILE_BYTES + 64 * 1024;

export const modelUploadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const uploads = () => app.services.modelUploads;

  app.post(PREFIX, {
    config: auth,
    bodyLimit: MANIFEST_BODY_LIMIT,
    schema: {
      operationId: 'startDataModelUpload',
      tags: TAGS,
      summary: 'Start an upload session for a deploy',
      description:
        'Takes the hash of every local file and answers which ones the server needs. Nothing changes on the branch until finish. ' +
        'The session expires after 1 hour.',
      params: DeploymentParams,
      body: Type.Ref(StartUploadBody),
      response: {
        201: Type.Ref(UploadSession),
        400: error('An invalid path or branch name.'),
        403: error('A shared branch needs SchemaUpdate; the deploy branch DeploymentUpdate.'),
        404: error('The deployment or branch does not exist.'),
        422: error('More than 5,000 files.'),
      },
    },
    handler: async (request, reply) => {
      const started = await uploads().start(principalOf(request), request.params.deploymentId, request.body);
      return reply.code(201).send(started);
    },
  });

  app.put(`${PREFIX}/:uploadId/files`, {
    config: auth,
    bodyLimit: FILE_BODY_LIMIT,
    schema: {
      operationId: 'uploadDataModelFile',
      tags: TAGS,
      summary: 'Upload one file of an upload session',
      params: UploadParams,
      body: Type.Ref(UploadFileBody),
      response: {
        200: Type.Ref(UploadedFile),
        400: error("The path is not in the manifest, or the content does not hash to the manifest's hash."),
        404: sessionGone,
        413: error('The file is larger than 1 MiB.'),
      },
    },
    handler: async (request) =>
      uploads().uploadFile(principalOf(request), request.params.deploymentId, request.params.uploadId, request.body),
  });

  app.post(`${PREFIX}/:uploadId/finish`, {
    config: auth,
    schema: {
      operationId: 'finishDataModelUpload',
      tags: TAGS,
      summary: 'Commit an upload session and build it',
      description:
        "Makes the manifest the branch's tree (the base tree overlaid with it with keepMissing) in one commit, merged into the head if it moved, and queues exactly one build.",
      params: UploadParams,
      response: {
        200: Type.Ref(FinishedUpload),
        400: error('Files the server needs were never uploaded.'),
        403: error('A shared branch needs SchemaUpdate; the deploy branch DeploymentUpdate.'),
        404: sessionGone,
        409: Type.Ref('DataModelConflict', {
          description: 'The branch changed the same files since the upload started; `conflicts` lists them.',
        }),
        422: error('The model would exceed 5,000 files or 50 MiB.'),
      },
    },
    handler: async (request) => uploads().finish(principalOf(request), request.params.deploymentId, request.params.uploadId),
  });

  app.delete(`${PREFIX}/:uploadId`, {
    config: auth,
    schema: {
      operationId: 'abortDataModelUpload',
      tags: TAGS,
      summary: 'Abort an upload session',
      description: 'The branch stays as it was.',
      params: UploadParams,
      response: { 200: Type.Ref(AbortedUpload), 404: sessionGone },
    },
    handler: async (request) => uploads().abort(principalOf(request), request.params.deploymentId, request.params.uploadId),
  });
};
