import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NoContent } from '../../http/common-schemas.js';
import { userPrincipalOf } from '../../http/auth.js';
import { deploymentParam, requires } from '../../http/requirement.js';
import {
  CreateFolderInput,
  DeleteFolderQuery,
  DeploymentFolderParams,
  Folder,
  FolderParams,
  FoldersListResponse,
  FoldersQuery,
  UpdateFolderInput,
} from './schemas.js';

const tags = ['Folders'];
/**
 * Every operation needs DeploymentRead on the deployment; what it may do on a folder is then the
 * content access of the caller's user (its own folders, and what resource policies share with it).
 */
const auth = requires('DeploymentRead', {
  resource: deploymentParam(),
  alsoDemands: 'content access to the folder: Read to read, Edit to change, Manage to delete; Edit on a folder to create or move into it',
});
const ACCESS =
  "A folder is private to its creator until a resource policy (`Folder`, on it or a folder above it) shares it; an admin reads and changes every folder. Another deployment's folder, or one the caller may not read, is 404.";
const NameTaken = Type.Ref('Error', { description: 'A sibling folder has this name (ignoring case).' });

export const folderRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const folders = app.services.folders;

  app.get('/api/v1/deployments/:deploymentId/folders', {
    config: { auth },
    schema: {
      operationId: 'getFolders',
      tags,
      summary: 'List folders',
      description: `One level of the folder tree: the folders directly in \`parentId\` (the root when absent) that the caller may read, by \`position\` then id. ${ACCESS}`,
      params: DeploymentFolderParams,
      querystring: FoldersQuery,
      response: { 200: Type.Ref(FoldersListResponse) },
    },
    handler: async (request) => folders.list(userPrincipalOf(request), request.params.deploymentId, request.query),
  });

  app.post('/api/v1/deployments/:deploymentId/folders', {
    config: { auth },
    schema: {
      operationId: 'createFolder',
      tags,
      summary: 'Create a folder',
      description: `Creates a folder at the root (\`parentId\` absent or null) or inside \`parentId\`, which needs FolderEdit on that folder. Without \`position\` it comes after its siblings. ${ACCESS}`,
      params: DeploymentFolderParams,
      body: Type.Ref(CreateFolderInput),
      response: { 201: Type.Ref(Folder), 409: NameTaken },
    },
    handler: async (request, reply) =>
      reply.code(201).send(await folders.create(userPrincipalOf(request), request.params.deploymentId, request.body)),
  });

  app.put('/api/v1/deployments/:deploymentId/folders/:folderId', {
    config: { auth },
    schema: {
      operationId: 'updateFolder',
      tags,
      summary: 'Update a folder',
      description: `Renames it, sets its \`position\`, or moves it with \`parentId\` (null: to the root); only the fields sent change. Needs FolderEdit on it, and on the folder it moves into; a folder never moves into itself or a folder inside it (400). ${ACCESS}`,
      params: FolderParams,
      body: Type.Ref(UpdateFolderInput),
      response: { 200: Type.Ref(Folder), 409: NameTaken },
    },
    handler: async (request) =>
      folders.update(userPrincipalOf(request), request.params.deploymentId, request.params.folderId, request.body),
  });

  app.delete('/api/v1/deployments/:deploymentId/folders/:folderId', {
    config: { auth },
    schema: {
      operationId: 'deleteFolder',
      tags,
      summary: 'Delete a folder',
      description: `Needs FolderManage. A folder holding anything (sub-folders, workbooks, reports) is refused with 409 saying how many items it holds, unless \`deleteContents=true\`: then it goes with everything in it (sub-folders, reports, workbooks and their dashboards) in one transaction. ${ACCESS}`,
      params: FolderParams,
      querystring: DeleteFolderQuery,
      response: { 204: NoContent, 409: Type.Ref('Error', { description: 'The folder is not empty and deleteContents is not set.' }) },
    },
    handler: async (request, reply) => {
      const { deploymentId, folderId } = request.params;
      await folders.remove(userPrincipalOf(request), deploymentId, folderId, request.query.deleteContents === true);
      return reply.code(204).send(null);
    },
  });

  app.get('/api/v1/deployments/:deploymentId/folders/:folderId/ancestors', {
    config: { auth },
    schema: {
      operationId: 'getFolderAncestors',
      tags,
      summary: 'List folder ancestors',
      description: `The folders from the root down to this one, itself included (a breadcrumb). Needs FolderRead on it. ${ACCESS}`,
      params: FolderParams,
      response: { 200: Type.Array(Type.Ref(Folder)) },
    },
    handler: async (request) => folders.ancestors(userPrincipalOf(request), request.params.deploymentId, request.params.folderId),
  });
};
