import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { principalOf } from '../../http/auth.js';
import { CONTENT_CREDENTIALS } from '../../http/principal.js';
import { Deleted } from '../../http/common-schemas.js';
import { deploymentParam, requires } from '../../http/requirement.js';
import { DeploymentParams } from '../deployments/schemas.js';
import { MAX_SNAPSHOT_CHARS, REFRESH_WAIT_MS } from './refresh.js';
import {
  CreateReportInput,
  Report,
  ReportFoldersFindAllResult,
  ReportParams,
  ReportsFindAllResult,
  ReportsQuery,
  UpdateReportInput,
  type CreateReportInput as CreateInput,
  type UpdateReportInput as UpdateInput,
} from './schemas.js';

const tags = ['Reports'];
/** Every route reads the deployment; what the caller may do on each report is the content access decision's. */
const auth = requires('DeploymentRead', { resource: deploymentParam() });
/** The operations a creator-mode embed session uses to build its tenant's reports. */
const creatorAuth = requires('DeploymentRead', { kinds: CONTENT_CREDENTIALS, resource: deploymentParam() });
const ACCESS =
  'A report is private to its creator until a resource policy shares it (on the report, or a folder above it): reading needs ReportRead, updating and refreshing ReportEdit, deleting ReportManage; a report the caller may not read is 404.';
const CREATOR_MODE =
  "A creator-mode embed token (`creatorMode: true`, sent as `Authorization: <token>`) works on its embed tenant's reports in its own deployment only (in its tenant's workbooks or at the root, never in a folder): what it creates belongs to the tenant, every creator-mode session of the tenant may read, change and delete it, and nobody else sees it (other tenants' sessions and the account's users, admins included, get 404). A read-only embed token gets 403.";

export const reportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const reports = app.services.reports;
  const base = '/api/v1/deployments/:deploymentId';

  app.get(`${base}/report-folders`, {
    config: { auth },
    schema: {
      operationId: 'getReportFolders',
      tags,
      summary: 'Get report folders',
      description: 'The folders that directly hold reports the caller may read, each with how many, ordered by name.',
      params: DeploymentParams,
      response: { 200: Type.Ref(ReportFoldersFindAllResult) },
    },
    handler: async (request) => reports.folders(principalOf(request), request.params.deploymentId),
  });

  app.get(`${base}/reports`, {
    config: { auth: creatorAuth },
    schema: {
      operationId: 'getReports',
      tags,
      summary: 'Get reports',
      description: `The reports of the deployment the caller may read, newest first by default. Page with \`first\`/\`after\` (cursors, stable under concurrent writes) or \`limit\`/\`page\` (numbered from 1), not both. ${ACCESS} ${CREATOR_MODE}`,
      params: DeploymentParams,
      querystring: ReportsQuery,
      response: { 200: Type.Ref(ReportsFindAllResult) },
    },
    handler: async (request) => reports.list(principalOf(request), request.params.deploymentId, request.query),
  });

  app.post(`${base}/reports`, {
    config: { auth: creatorAuth },
    schema: {
      operationId: 'createReport',
      tags,
      summary: 'Create report',
      description:
        `At the root of the deployment the report is the caller's private item (DeploymentRead); in a folder it needs FolderEdit on the folder, in a workbook WorkbookEdit on the workbook (both of the same deployment). A \`publicId\` already taken is 409. ${CREATOR_MODE}`,
      params: DeploymentParams,
      body: Type.Ref(CreateReportInput),
      response: { 200: Type.Ref(Report) },
    },
    handler: async (request) => reports.create(principalOf(request), request.params.deploymentId, (request.body ?? {}) as CreateInput),
  });

  app.get(`${base}/reports/:reportId`, {
    config: { auth: creatorAuth },
    schema: {
      operationId: 'getReport',
      tags,
      summary: 'Get report',
      description: `The report with its last snapshot. ${ACCESS} ${CREATOR_MODE}`,
      params: ReportParams,
      response: { 200: Type.Ref(Report) },
    },
    handler: async (request) => reports.get(principalOf(request), request.params.deploymentId, request.params.reportId),
  });

  app.put(`${base}/reports/:reportId`, {
    config: { auth: creatorAuth },
    schema: {
      operationId: 'updateReport',
      tags,
      summary: 'Update report',
      description: `Changes the fields given. Moving the report into a folder or workbook needs Edit there. ${ACCESS} ${CREATOR_MODE}`,
      params: ReportParams,
      body: Type.Ref(UpdateReportInput),
      response: { 200: Type.Ref(Report) },
    },
    handler: async (request) =>
      reports.update(principalOf(request), request.params.deploymentId, request.params.reportId, (request.body ?? {}) as UpdateInput),
  });

  app.delete(`${base}/reports/:reportId`, {
    config: { auth: creatorAuth },
    schema: {
      operationId: 'deleteReport',
      tags,
      summary: 'Delete report',
      description: `${ACCESS} ${CREATOR_MODE}`,
      params: ReportParams,
      response: { 200: Type.Ref(Deleted) },
    },
    handler: async (request) => reports.remove(principalOf(request), request.params.deploymentId, request.params.reportId),
  });

  app.put(`${base}/reports/:reportId/refresh`, {
    config: { auth },
    schema: {
      operationId: 'refreshReport',
      tags,
      summary: 'Refresh report',
      description: `Runs the report's query (jsonQuery, or sqlQuery through the SQL API's translation) on the deployment's data API as the calling user, so the user's access policies (groups, user attributes) decide what the snapshot holds, and keeps the answer (\`data\`, \`annotation\`, …; at most ${MAX_SNAPSHOT_CHARS / 1_000_000} MB of JSON, a larger answer keeps its first rows with \`truncated: true\` and \`rowCount\`) with \`refreshedBy\` and \`refreshedAt\`. A query that no longer runs (an unknown or hidden member, no build yet, the warehouse refusing it) answers 200 with the report carrying \`refreshError\`, kept until a refresh works; the previous snapshot stays. Still running after ${REFRESH_WAIT_MS / 1000} s: 503, nothing recorded. ${ACCESS}`,
      params: ReportParams,
      response: { 200: Type.Ref(Report) },
    },
    handler: async (request) => reports.refresh(principalOf(request), request.params.deploymentId, request.params.reportId),
  });
};
