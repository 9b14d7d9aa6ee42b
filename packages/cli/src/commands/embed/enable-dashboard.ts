import { defineVerb, type Verb } from '../../core/define.js';
import { enc, id } from '../../core/rest.js';

/** enable-dashboard and disable-dashboard: one operation (updateDashboardEmbedAccess), two verbs. */
export function embedAccessVerb(allowEmbed: boolean): Verb {
  return defineVerb({
    name: allowEmbed ? 'enable-dashboard' : 'disable-dashboard',
    summary: allowEmbed
      ? 'Allow embed tokens of the deployment to open a published dashboard (updateDashboardEmbedAccess)'
      : 'Stop embed tokens from opening a dashboard (updateDashboardEmbedAccess, allowEmbed false)',
    description: allowEmbed
      ? "Embedding is off until enabled, and only a published dashboard can be enabled. Needs WorkbookManage on the dashboard's workbook, or an admin."
      : "Needs WorkbookManage on the dashboard's workbook, or an admin.",
    args: ['<deployment_id>', '<public_id>'],
    examples: [`plinth embed ${allowEmbed ? 'enable' : 'disable'}-dashboard 3 0b6c7a52-9d7e-4a53-9c1f-1f6c5a0e2b11`],
    async run(f, [deploymentId, publicId]) {
      const client = await f.client();
      const path = `/api/v1/deployments/${id(deploymentId, 'deployment_id')}/dashboards/${enc(publicId ?? '')}/embed-access`;
      const response = await client.request('PUT', path, { body: { allowEmbed } });
      if (f.output.json) return f.output.raw(response);
      f.output.status(`Embedding of dashboard ${publicId} ${allowEmbed ? 'enabled' : 'disabled'}`);
    },
  });
}

export const enableDashboard = embedAccessVerb(true);
