import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { userPrincipalOf } from '../../http/auth.js';
import { deploymentParam, requires } from '../../http/requirement.js';
import { DeploymentParams, MoveWorkspaceObjectInput, WorkspaceConnectionResponse, WorkspaceItem, WorkspaceQuery } from './schemas.js';

const tags = ['Workspace'];
const auth = requires('DeploymentRead', {
  resource: deploymentParam(),
  alsoDemands:
    'content access: lists show only what the caller may read; a move needs Edit on the item and FolderEdit on the target folder',
});
const LISTING =
  'Folders come first (by the chosen field too), then workbooks and reports. Without `folderId` it lists the top: items at the root and those whose folder the caller may not open; with `search` and no `folderId`, every folder. Paged with `first`/`after`; a cursor holds the whole sort key, so pages stay consistent while items are added.';

/** `types=FOLDER,REPORT` is accepted beside the repeated form; the schema then checks each value. */
async function splitTypes(request: FastifyRequest) {
  const query = request.query as Record<string, unknown>;
  const types = query.types;
  if (types === undefined) return;
  const values = (Array.isArray(types) ? types : [types]).flatMap((value) => (typeof value === 'string' ? value.split(',') : [value]));
  query.types = values.map((value) => (typeof value === 'string' ? value.trim() : value)).filter((value) => value !== '');
}

export const workspaceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const workspace = app.services.workspace;

  app.get('/api/v1/deployments/:deploymentId/workspace', {
    config: { auth },
    preValidation: splitTypes,
    schema: {
      operationId: 'workspaceObjects',
      tags,
      summary: 'List workspace items',
      description: `My workspace: the folders, workbooks and reports the caller created in the deployment. ${LISTING}`,
      params: DeploymentParams,
      querystring: WorkspaceQuery,
      response: { 200: Type.Ref(WorkspaceConnectionResponse) },
    },
    handler: async (request) => workspace.list(userPrincipalOf(request), request.params.deploymentId, 'workspace', request.query),
  });

  app.get('/api/v1/deployments/:deploymentId/shared-workspace', {
    config: { auth },
    preValidation: splitTypes,
    schema: {
      operationId: 'sharedWorkspaceObjects',
      tags,
      summary: 'List shared workspace items',
      description: `The items others created that the caller may read: shared with the caller's user or groups by a resource policy on them or on a folder above them (an admin reads every item). ${LISTING}`,
      params: DeploymentParams,
      querystring: WorkspaceQuery,
      response: { 200: Type.Ref(WorkspaceConnectionResponse) },
    },
    handler: async (request) => workspace.list(userPrincipalOf(request), request.params.deploymentId, 'shared-workspace', request.query),
  });

  app.post('/api/v1/deployments/:deploymentId/workspace/move', {
    config: { auth },
    schema: {
      operationId: 'moveWorkspaceObject',
      tags,
      summary: 'Move a workspace item',
      description:
        'Moves a folder, workbook or report into the folder `folderId` (null or absent: the root) and returns it as the workspace lists it. Needs Edit on the item and FolderEdit on the target folder. A folder never moves into itself or a folder inside it (400), nor beside a folder of the same name (409).',
      params: DeploymentParams,
      body: Type.Ref(MoveWorkspaceObjectInput),
      response: {
        200: Type.Ref(WorkspaceItem),
        409: Type.Ref('Error', { description: 'A folder of that name is already in the target.' }),
      },
    },
    handler: async (request) => workspace.move(userPrincipalOf(request), request.params.deploymentId, request.body),
  });
};
