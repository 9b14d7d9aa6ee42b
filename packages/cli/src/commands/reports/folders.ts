import { defineVerb } from '../../core/define.js';
import { id } from '../../core/rest.js';
import { asItems } from './fields.js';

export const folders = defineVerb({
  name: 'folders',
  summary: 'List the folders holding reports you may read, with how many (getReportFolders)',
  args: ['<deployment_id>'],
  async run(f, [deploymentId]) {
    const client = await f.client();
    const response = await client.request('GET', `/api/v1/deployments/${id(deploymentId, 'deployment_id')}/report-folders`);
    f.output.list(asItems(response), [
      ['ID', 'id'],
      ['Name', 'name'],
      ['Reports', 'reportsCount'],
      ['Created by', 'createdBy'],
    ]);
  },
});
