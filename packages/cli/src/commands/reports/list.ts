import { positiveInt } from '../../core/body.js';
import { defineVerb } from '../../core/define.js';
import { pageOptions, pageQuery } from '../../core/rest.js';
import { asItems, reportColumns, reportsPath } from './fields.js';

export const list = defineVerb({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the reports of a deployment you may read (getReports)',
  args: ['<deployment_id>'],
  options: [
    { flags: '--workbook <id>', description: 'Only the reports of this workbook' },
    { flags: '--sort-by <field>', description: 'Order by (default createdAt)', choices: ['createdAt', 'updatedAt', 'lastViewedAt'] },
    { flags: '--sort-direction <dir>', description: 'Direction (default DESC)', choices: ['ASC', 'DESC'] },
    ...pageOptions(),
    { flags: '--limit <n>', description: 'Numbered pages: page size (with --page; not with --first/--after)' },
    { flags: '--page <n>', description: 'Numbered pages: page number, from 1' },
  ],
  examples: ['plinth reports list 1 --sort-by updatedAt', 'plinth reports list 1 --limit 20 --page 2'],
  async run(f, [deploymentId], opts) {
    const path = reportsPath(deploymentId);
    const query = {
      ...pageQuery(opts),
      workbookId: opts.workbook === undefined ? undefined : positiveInt(opts.workbook, '--workbook'),
      sortBy: opts.sortBy,
      sortDirection: opts.sortDirection,
      limit: opts.limit === undefined ? undefined : positiveInt(opts.limit, '--limit'),
      page: opts.page === undefined ? undefined : positiveInt(opts.page, '--page'),
    };
    const client = await f.client();
    f.output.list(asItems(await client.request('GET', path, { query })), reportColumns);
  },
});
