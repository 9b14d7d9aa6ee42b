import type { Ok } from '@plinth/api-client';
import { readJsonArg } from '../../core/body.js';
import { defineVerb } from '../../core/define.js';
import { id } from '../../core/rest.js';
import { workbookPath } from './paths.js';

export const publish = defineVerb({
  name: 'publish',
  summary: "Publish a workbook's dashboard draft as a new version (publishDashboard)",
  description:
    'The first publish gives the dashboard its public id, kept from then on; each publish adds a version. --archive archives the published dashboard instead (embed tokens stop opening it) until the next publish. Embedding is allowed separately: plinth embed enable-dashboard.',
  args: ['<deployment_id>', '<workbook_id>'],
  options: [
    { flags: '--title <title>', description: "The dashboard's title (default: the draft's)" },
    { flags: '--description <text>', description: "The dashboard's description" },
    { flags: '-d, --data <json>', description: 'Publish this config (JSON, @file or -) instead of the saved draft' },
    { flags: '--archive', description: 'Archive the published dashboard instead of publishing' },
  ],
  examples: ['plinth workbooks publish 3 12 --title "Sales board"', 'plinth workbooks publish 3 12 --archive'],
  async run(f, args, opts) {
    const workbookId = id(args[1], 'workbook_id');
    const body = {
      workbookId,
      title: opts.title,
      description: opts.description,
      config: opts.data === undefined ? undefined : await readJsonArg(f.io, opts.data),
      status: opts.archive ? 'archived' : undefined,
    };
    const client = await f.client();
    const response = await client.request<Ok<'/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/publish', 'post'>>(
      'POST',
      `${workbookPath(args)}/publish`,
      { body },
    );
    if (f.output.json) return f.output.raw(response);
    const d = response.data;
    f.output.status(
      d.status === 'archived' ? `Archived dashboard ${d.publicId}` : `Published dashboard ${d.publicId} version ${d.versionNumber}`,
    );
    f.output.data(d.publicId);
  },
});
