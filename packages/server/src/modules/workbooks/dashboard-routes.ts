import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { contentPrincipalOf, principalOf } from '../../http/auth.js';
import { IntegerId } from '../../http/common-schemas.js';
import { CONTENT_CREDENTIALS, PLATFORM_CREDENTIALS } from '../../http/principal.js';
import { deploymentParam, requires } from '../../http/requirement.js';
import { Dashboard, EmbedAccessInput, PublishDashboardInput, WorkbookDashboard, WorkbookDashboardInput } from './dashboard-schemas.js';
import { CREATOR_MODE, WorkbookParams } from './schemas.js';

const PublicId = Type.String({ minLength: 1, maxLength: 200, description: "The dashboard's public id." });

const WIDGETS =
  'Widgets are CHART, TEXT, FILTER, AI, TABS_CONTAINER and TIME_GRAIN, with unique ids; a CHART names a report of this workbook in `config.reportId`; a TABS_CONTAINER names other widgets of the dashboard in `config.tabs[].widgetIds`. A bad widget is a 400 naming it.';

export const dashboardRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const dashboards = app.services.dashboards;

  app.put('/api/v1/deployments/:deploymentId/workbooks/:workbookId/dashboard', {
    config: {
      auth: requires('DeploymentRead', {
        kinds: CONTENT_CREDENTIALS,
        resource: deploymentParam(),
        alsoDemands: 'Needs `WorkbookEdit` on the workbook.',
      }),
    },
    schema: {
      operationId: 'updateWorkbookDashboard',
      tags: ['Workbooks'],
      summary: 'Update workbook dashboard',
      description: `Saves the draft of the workbook's dashboard (null clears it); nothing is published. ${WIDGETS} ${CREATOR_MODE}`,
      params: WorkbookParams,
      body: Type.Ref(WorkbookDashboardInput),
      response: { 200: Type.Ref(WorkbookDashboard) },
    },
    handler: async (request) =>
      dashboards.updateDraft(
        contentPrincipalOf(request),
        request.params.deploymentId,
        request.params.workbookId,
        request.body.dashboardDraft,
      ),
  });

  app.post('/api/v1/deployments/:deploymentId/workbooks/:workbookId/publish', {
    config: {
      auth: requires('DeploymentRead', {
        kinds: CONTENT_CREDENTIALS,
        resource: deploymentParam(),
        alsoDemands: 'Needs `WorkbookEdit` on the workbook.',
      }),
    },
    schema: {
      operationId: 'publishDashboard',
      tags: ['Workbooks'],
      summary: 'Publish dashboard',
      description:
        "Freezes the draft (or `config`, when sent) into a new version of the workbook's dashboard, with snapshots of the reports its charts show. The first publish creates the dashboard and its `publicId`, which stays; `versionNumber` grows by one on every publish. No draft and no `config`: 400. `status: archived` archives the published dashboard instead (embed tokens no longer open it); the next publish makes it `published` again. An embed tenant's dashboard is created with embedding allowed, so its tenant's read-only sessions open it once published. " +
        WIDGETS +
        ' ' +
        CREATOR_MODE,
      params: WorkbookParams,
      body: Type.Ref(PublishDashboardInput),
      response: { 200: Type.Ref(Dashboard) },
    },
    handler: async (request) =>
      dashboards.publish(contentPrincipalOf(request), request.params.deploymentId, request.params.workbookId, request.body),
  });

  app.put('/api/v1/deployments/:deploymentId/dashboards/:publicId/embed-access', {
    config: {
      auth: requires('DeploymentRead', {
        kinds: CONTENT_CREDENTIALS,
        resource: deploymentParam(),
        alsoDemands: "Needs `WorkbookManage` on the dashboard's workbook (admins hold it).",
      }),
    },
    schema: {
      operationId: 'updateDashboardEmbedAccess',
      tags: ['Dashboard Embed Access'],
      summary: 'Allow or stop embedding of a dashboard',
      description: `Embedding is off until allowed (an embed tenant's dashboard: on from its first publish). Only a published dashboard can be allowed (409 for an archived one); turning it off always works. ${CREATOR_MODE}`,
      params: Type.Object({ deploymentId: IntegerId, publicId: PublicId }),
      body: Type.Ref(EmbedAccessInput),
      response: { 200: Type.Ref(Dashboard), 409: Type.Ref('Error') },
    },
    handler: async (request) =>
      dashboards.setEmbedAccess(contentPrincipalOf(request), request.params.deploymentId, request.params.publicId, request.body.allowEmbed),
  });

  // Embed tokens arrive as bare JWTs, verified under the dataToken kind (deployment-tokens/verifier.ts);
  // a data API token proper does not hold EmbedDashboardRead and is refused by the requirement.
  app.get('/api/v1/embed/dashboard/:publicId', {
    // The service finds the dashboard only in the caller's deployments.
    config: { auth: requires('EmbedDashboardRead', { kinds: ['dataToken', ...PLATFORM_CREDENTIALS], resource: 'withinScope' }) },
    schema: {
      operationId: 'getDashboard',
      tags: ['Embed'],
      summary: 'Get an embeddable dashboard',
      description:
        "The dashboard's latest version, with its report snapshots. An embed token opens a published dashboard of its own deployment whose embedding is allowed, and a token minted for one dashboard (`publicDashboardId`) only that one (403 for another); a dashboard made in creator mode only with a token of its embed tenant, and a creator-mode token of that tenant opens it whatever its status and embedding. An API key or access token opens any dashboard whose workbook its user may read (`WorkbookRead`), to preview it (never an embed tenant's). Anything else is 404, as for a dashboard that does not exist.",
      params: Type.Object({ publicId: PublicId }),
      response: { 200: Type.Ref(Dashboard) },
    },
    handler: async (request) => dashboards.getByPublicId(principalOf(request), request.params.publicId),
  });
};
