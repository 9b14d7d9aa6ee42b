import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { contentPrincipalOf } from '../../http/auth.js';
import { Deleted } from '../../http/common-schemas.js';
import { CONTENT_CREDENTIALS } from '../../http/principal.js';
import { deploymentParam, requires } from '../../http/requirement.js';
import { dashboardRoutes } from './dashboard-routes.js';
import {
  CreateWorkbookInput,
  CREATOR_MODE,
  DeploymentParams,
  UpdateWorkbookInput,
  Workbook,
  WorkbookParams,
  WorkbooksListResponse,
  WorkbooksQuery,
} from './schemas.js';

const tags = ['Workbooks'];
/** Every workbook operation acts in one deployment; what it may do to the workbook is content access's (service.ts). */
const inDeployment = (alsoDemands: string) => ({
  auth: requires('DeploymentRead', { kinds: CONTENT_CREDENTIALS, resource: deploymentParam(), alsoDemands }),
});
const ACCESS = `Workbooks are private to their creator until shared by a resource policy on the workbook or a folder above it; a workbook the caller may not read answers 404. ${CREATOR_MODE}`;

export const workbookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const workbooks = app.services.workbooks;

  app.get('/api/v1/deployments/:deploymentId/workbooks', {
    config: inDeployment('Lists only the workbooks the caller may read (`WorkbookRead`).'),
    schema: {
      operationId: 'getWorkbooks',
      tags,
      summary: 'Get workbooks',
      description: `In id order. \`folderId\` limits the list to one folder (0 or null: the root). ${ACCESS}`,
      params: DeploymentParams,
      querystring: WorkbooksQuery,
      response: { 200: Type.Ref(WorkbooksListResponse) },
    },
    handler: async (request) => workbooks.list(contentPrincipalOf(request), request.params.deploymentId, request.query),
  });

  app.post('/api/v1/deployments/:deploymentId/workbooks', {
    config: inDeployment('Creating in a folder needs `FolderEdit` on it.'),
    schema: {
      operationId: 'createWorkbook',
      tags,
      summary: 'Create workbook',
      description: `Creates a workbook owned by the caller (name "${'Untitled workbook'}" when none is given). ${ACCESS}`,
      params: DeploymentParams,
      body: Type.Ref(CreateWorkbookInput),
      response: { 200: Type.Ref(Workbook) },
    },
    handler: async (request) => workbooks.create(contentPrincipalOf(request), request.params.deploymentId, request.body ?? {}),
  });

  app.get('/api/v1/deployments/:deploymentId/workbooks/:workbookId', {
    config: inDeployment('Needs `WorkbookRead` on the workbook.'),
    schema: {
      operationId: 'getWorkbook',
      tags,
      summary: 'Get workbook',
      description: ACCESS,
      params: WorkbookParams,
      response: { 200: Type.Ref(Workbook) },
    },
    handler: async (request) => workbooks.get(contentPrincipalOf(request), request.params.deploymentId, request.params.workbookId),
  });

  app.put('/api/v1/deployments/:deploymentId/workbooks/:workbookId', {
    config: inDeployment('Needs `WorkbookEdit` on the workbook, and `FolderEdit` on the folder it moves into.'),
    schema: {
      operationId: 'updateWorkbook',
      tags,
      summary: 'Update a workbook',
      description: `Only the fields sent change. \`folderId\` moves it (null: to the root); \`calculatedFields\` replaces the whole set. ${ACCESS}`,
      params: WorkbookParams,
      body: Type.Ref(UpdateWorkbookInput),
      response: { 200: Type.Ref(Workbook) },
    },
    handler: async (request) =>
      workbooks.update(contentPrincipalOf(request), request.params.deploymentId, request.params.workbookId, request.body ?? {}),
  });

  app.delete('/api/v1/deployments/:deploymentId/workbooks/:workbookId', {
    config: inDeployment('Needs `WorkbookManage` on the workbook.'),
    schema: {
      operationId: 'deleteWorkbook',
      tags,
      summary: 'Delete workbook',
      description: `Deletes the workbook with its reports and its dashboard (every version). ${ACCESS}`,
      params: WorkbookParams,
      response: { 200: Type.Ref(Deleted) },
    },
    handler: async (request) => workbooks.delete(contentPrincipalOf(request), request.params.deploymentId, request.params.workbookId),
  });

  app.post('/api/v1/deployments/:deploymentId/workbooks/:workbookId/duplicate', {
    config: inDeployment('Needs `WorkbookRead` on the source.'),
    schema: {
      operationId: 'duplicateWorkbook',
      tags,
      summary: 'Clone a workbook',
      description:
        'A copy owned by the caller, named "<name> (copy)" ("(copy 2)", … when taken): meta, calculated fields, reports and the dashboard draft (its charts pointing at the copied reports), not the published dashboard. It lands in the source\'s folder when the caller holds `FolderEdit` there, else at the root. ' +
        ACCESS,
      params: WorkbookParams,
      response: { 200: Type.Ref(Workbook) },
    },
    handler: async (request) => workbooks.duplicate(contentPrincipalOf(request), request.params.deploymentId, request.params.workbookId),
  });

  await app.register(dashboardRoutes);
};
