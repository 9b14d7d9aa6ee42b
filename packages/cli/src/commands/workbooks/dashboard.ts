import type { Ok } from '@plinth/api-client';
import { readJsonArg } from '../../core/body.js';
import { defineVerb } from '../../core/define.js';
import { UsageError } from '../../core/errors.js';
import { workbookPath } from './paths.js';

export const dashboard = defineVerb({
  name: 'dashboard',
  summary: "Save the draft of a workbook's dashboard: widgets and layout (updateWorkbookDashboard)",
  description:
    'The draft is a dashboard config: {"title", "layout", "widgets": [{"id", "type", "position": {x, y, w, h}, "config"}]}. Types: CHART (config.reportId: a report of this workbook), TEXT, FILTER, AI, TABS_CONTAINER (config.tabs[].widgetIds), TIME_GRAIN. Nothing is published until `plinth workbooks publish`.',
  args: ['<deployment_id>', '<workbook_id>'],
  options: [
    { flags: '-d, --data <json>', description: 'The draft as JSON, @file, or - for standard input' },
    { flags: '--file <path>', description: 'Read the draft from this JSON file' },
    { flags: '--clear', description: 'Remove the draft' },
  ],
  examples: [
    'plinth workbooks dashboard 3 12 --file board.json',
    `plinth workbooks dashboard 3 12 -d '{"widgets":[{"id":"t","type":"TEXT","position":{"x":0,"y":0,"w":4,"h":2}}]}'`,
  ],
  async run(f, args, opts) {
    const given = [opts.data, opts.file, opts.clear].filter((v) => v !== undefined).length;
    if (given !== 1) throw new UsageError('give the draft with -d or --file, or --clear');
    let draft: unknown = null;
    if (opts.data !== undefined) draft = await readJsonArg(f.io, opts.data);
    if (opts.file !== undefined) draft = await readJsonArg(f.io, `@${opts.file}`, '--file');
    if (draft !== null && (typeof draft !== 'object' || Array.isArray(draft))) throw new UsageError('the draft must be a JSON object');
    // A body already shaped as the operation's ({"dashboardDraft": …}) is sent as it is.
    const body = draft !== null && Object.keys(draft as object).join() === 'dashboardDraft' ? draft : { dashboardDraft: draft };
    const client = await f.client();
    const response = await client.request<Ok<'/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/dashboard', 'put'>>(
      'PUT',
      `${workbookPath(args)}/dashboard`,
      { body },
    );
    if (f.output.json) return f.output.raw(response);
    const widgets = response.data.dashboardDraft?.widgets?.length;
    f.output.status(
      widgets === undefined ? `Cleared the draft of workbook ${args[1]}` : `Saved the draft of workbook ${args[1]}: ${widgets} widget(s)`,
    );
  },
});
