import { positiveInt } from '../../core/body.js';
import { defineVerb } from '../../core/define.js';
import { UsageError } from '../../core/errors.js';
import { id } from '../../core/rest.js';
import { typeOf, workspaceColumns } from './listing.js';

export const move = defineVerb({
  name: 'move',
  summary: 'Move a folder, workbook or report into a folder or to the root (moveWorkspaceObject)',
  description: 'Needs Edit on the item and FolderEdit on the target folder. A folder never moves into itself or a folder inside it.',
  args: ['<deployment_id>', '<type>', '<id>'],
  options: [
    { flags: '--into <folder_id>', description: 'The folder to move it into' },
    { flags: '--root', description: 'Move it to the root of the workspace' },
  ],
  examples: ['plinth workspace move 3 REPORT 41 --into 12', 'plinth workspace move 3 folder 12 --root'],
  async run(f, [deploymentId, type, itemId], opts) {
    if ((opts.into === undefined) === !opts.root) throw new UsageError('give --into <folder_id> or --root');
    const kind = typeOf(type ?? '');
    const body = {
      type: kind,
      id: positiveInt(itemId ?? '', 'id'),
      folderId: opts.root ? null : positiveInt(opts.into ?? '', '--into'),
    };
    const client = await f.client();
    const response = await client.request('POST', `/api/v1/deployments/${id(deploymentId, 'deployment_id')}/workspace/move`, { body });
    f.output.status(`Moved ${kind.toLowerCase()} ${body.id} ${body.folderId === null ? 'to the root' : `into folder ${body.folderId}`}`);
    f.output.object(response, workspaceColumns);
  },
});
